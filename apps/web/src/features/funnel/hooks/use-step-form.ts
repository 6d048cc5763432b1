import { useEffectEvent, useLayoutEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { DefaultValues, FieldValues } from 'react-hook-form';
import type { LeadSummary } from '@funnel/contracts/api';
import {
  getStep,
  screenAfter,
  validateStepAgainstLead,
  type ClientAnswers,
  type StepName,
} from '@funnel/contracts/steps';
import { schemaResolver, type FieldRejection } from '@/components/form/schema-resolver';
import { useSchemaForm, type SchemaForm } from '@/components/form/use-schema-form';
import { isSessionExpired, useExpireSession } from '@/hooks/use-expire-session';
import { ApiRequestError } from '@/lib/api-request-error';
import { businessToday } from '@/lib/business-today';
import { GENERIC_ERROR } from '@/lib/generic-error';
import { describeError, postClientLog } from '@/lib/post-client-log';
import { useSaveStep } from '../api/save-step';
import { useLoadedLead } from './use-loaded-lead';

/**
 * Where a screen goes once its step is saved, given the BFF's next step. It may do more work first (the last step
 * submits the application), which counts as part of the save: busy meanwhile, failures shown on the form.
 */
export type Destination = (nextStep: StepName) => string | Promise<string>;

const toNextStep: Destination = (nextStep) => `/${nextStep}`;

interface StepFormOptions<V extends FieldValues> {
  /** Every field the screen shows, as its control holds it; from the saved answers where there are some. */
  defaultValues: (lead: LeadSummary) => DefaultValues<V>;
  /** The values turned into the step's answers, when the controls hold something else (three date selects). */
  toAnswers?: (
    values: V,
    lead: LeadSummary,
  ) => ClientAnswers | FieldRejection | Promise<ClientAnswers | FieldRejection>;
}

export interface StepForm<V extends FieldValues> extends SchemaForm<V> {
  /** The saved lead; before it has arrived (the prerendered page, hydration), an empty stand-in. */
  lead: LeadSummary;
  /** True once the lead (and the configuration) are there; a press of Next before waits for them. */
  leadLoaded: boolean;
  /** A message for the whole form: a failed save, or an error about a field this screen does not show. */
  formError: string | undefined;
  /** Validates with the step's schema and cross-field rules, then `onValid` (by default: save and move on). */
  submitStep: (onValid?: (answers: ClientAnswers) => unknown, destination?: Destination) => void;
  /** Saves answers the form already accepted. */
  save: (answers: ClientAnswers, destination?: Destination) => void;
  /** Continues without saving, keeping the answer on file: where the BFF says the visitor continues. */
  keepSaved: (destination?: Destination) => void;
}

/**
 * The engine of every step screen, on `useSchemaForm`: the same contracts schema and cross-field rules the BFF
 * runs, the save, and the move on: one screen forward while the next is answered, else to the step the BFF
 * answers with (the first unanswered one). An expired session sends
 * the visitor back to the start.
 */
export function useStepForm<V extends FieldValues>(
  step: StepName,
  { defaultValues, toAnswers }: StepFormOptions<V>,
): StepForm<V> {
  const { lead, ready } = useLoadedLead();
  const navigate = useNavigate();
  const expireSession = useExpireSession();
  const { mutateAsync } = useSaveStep();
  const [formError, setFormError] = useState<string>();
  const schemaForm = useSchemaForm<V>({
    defaultValues: defaultValues(lead),
    // Built each render, so `toAnswers` sees the screen's current state (a ZIP code lookup's answer).
    resolver: schemaResolver<V, ClientAnswers>(getStep(step).schema, {
      toInput: toAnswers && ((values: V) => toAnswers(values, lead)),
      check: (answers) =>
        validateStepAgainstLead(step, answers as ClientAnswers, lead.answers, businessToday()),
    }),
    onFailure(error, unknownFields) {
      if (isSessionExpired(error)) {
        expireSession();
      } else if (error instanceof ApiRequestError && error.code === 'STEP_OUT_OF_ORDER') {
        // A screen ahead of the first unanswered one (an address typed or bookmarked): the BFF keeps the wizard's
        // order, so the visitor goes on from the first question still open, losing nothing already saved.
        void navigate(`/${lead.nextStep}`, { replace: true });
      } else if (Object.keys(unknownFields).length > 0) {
        setFormError(Object.values(unknownFields)[0]);
      } else {
        setFormError(GENERIC_ERROR);
        postClientLog({ pretext: `Saving step ${step} failed`, text: describeError(error), type: 'error' });
      }
    },
  });

  // The page is drawn before the lead arrives (docs/adr/0019-html-first-borrower-screens.md). Once it is there,
  // the saved answers fill every field the visitor has not touched meanwhile, and a press of Next made while
  // waiting is made again, now against the real lead.
  const seededEmpty = useRef(!ready);
  const formElement = useRef<HTMLFormElement | null>(null);
  // A press made before: shown busy until the lead is there, then made again (the ref: once only).
  const pressedEarly = useRef(false);
  const [pressedBeforeReady, setPressedBeforeReady] = useState(false);
  const onReady = useEffectEvent(() => {
    if (seededEmpty.current) {
      seededEmpty.current = false;
      schemaForm.form.reset(defaultValues(lead), { keepDirtyValues: true });
    }
    if (pressedEarly.current) {
      pressedEarly.current = false;
      formElement.current?.requestSubmit();
    }
  });
  // In the commit that shows the lead as there (the form stops being `aria-busy`, StepScreen), before the browser
  // paints or anything reads the fields: they never show as loaded but empty.
  useLayoutEffect(() => {
    if (ready) onReady();
  }, [ready]);
  /** Runs `action` now, or once the lead is there. */
  const whenReady = (action: () => void) => {
    if (ready) return action();
    pressedEarly.current = true;
    setPressedBeforeReady(true);
  };

  async function persist(answers: ClientAnswers, destination: Destination) {
    setFormError(undefined);
    const { nextStep } = await mutateAsync({ step, answers });
    await navigate(await destination(screenAfter(step, nextStep)));
  }

  return {
    ...schemaForm,
    attachForm(element) {
      formElement.current = element;
      schemaForm.attachForm(element);
    },
    busy: schemaForm.busy || (pressedBeforeReady && !ready),
    lead,
    leadLoaded: ready,
    formError,
    submitStep(onValid, destination = toNextStep) {
      whenReady(() =>
        schemaForm.submit((answers) => (onValid ? onValid(answers) : persist(answers, destination))),
      );
    },
    save(answers, destination = toNextStep) {
      whenReady(() => schemaForm.run(() => persist(answers, destination)));
    },
    keepSaved(destination = toNextStep) {
      whenReady(() =>
        schemaForm.run(async () => {
          await navigate(await destination(screenAfter(step, lead.nextStep)));
        }),
      );
    },
  };
}
