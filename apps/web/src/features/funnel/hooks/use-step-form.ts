import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { LeadSummary } from '@funnel/contracts/api';
import { fieldErrors } from '@funnel/contracts/errors';
import { getStep, validateStepAgainstLead, type ClientAnswers, type StepName } from '@funnel/contracts/steps';
import { isSessionExpired, useExpireSession } from '@/hooks/use-expire-session';
import { ApiRequestError } from '@/lib/api-request-error';
import { businessToday } from '@/lib/business-today';
import { GENERIC_ERROR } from '@/lib/generic-error';
import { describeError, postClientLog } from '@/lib/post-client-log';
import { useSaveStep } from '../api/save-step';
import { useLoadedLead } from './use-loaded-lead';

export type FieldErrors = Readonly<Record<string, string>>;

/**
 * Where a screen goes once its step is saved, given the BFF's next step. It may do more work first (the last step
 * submits the application), which counts as part of the save: busy meanwhile, failures shown on the form.
 */
export type Destination = (nextStep: StepName) => string | Promise<string>;

const toNextStep: Destination = (nextStep) => `/${nextStep}`;

export interface StepForm {
  lead: LeadSummary;
  /** Messages by field name, shown beside their fields. */
  errors: FieldErrors;
  /** A message for the whole form: a failed save, or an error about a field this screen does not show. */
  formError: string | undefined;
  busy: boolean;
  /** Counts refused submits, so the screen can move focus to the first invalid field after each one. */
  rejections: number;
  clearError: (field: string) => void;
  reject: (errors: FieldErrors) => void;
  /** Runs the step's contracts schema and cross-field rules; the answers to save, or undefined (errors shown). */
  validate: (input: ClientAnswers) => ClientAnswers | undefined;
  /** Validates `input` (or what `prepare` resolves to) and saves it; a press while busy is ignored. */
  submit: (
    prepare: ClientAnswers | (() => Promise<ClientAnswers | undefined>),
    destination?: Destination,
  ) => void;
  /** Saves answers `validate` already accepted. */
  save: (answers: ClientAnswers, destination?: Destination) => void;
  /** Continues without saving, keeping the answer on file: where the BFF says the visitor continues. */
  keepSaved: (destination?: Destination) => void;
}

/**
 * The engine of every step screen: validation with the same contracts schema the BFF runs, the save, and the
 * move to the step the BFF answers with (never a client guess). Field errors from either side land beside their
 * fields; an expired session sends the visitor back to the start.
 *
 * @param extraFields fields the screen shows besides the step's own (the date-of-birth selects).
 */
export function useStepForm(step: StepName, extraFields: readonly string[] = []): StepForm {
  const lead = useLoadedLead();
  const navigate = useNavigate();
  const expireSession = useExpireSession();
  const { mutateAsync } = useSaveStep();
  const [errors, setErrors] = useState<FieldErrors>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [rejections, setRejections] = useState(0);
  // The state above drives rendering; this ref closes the gap between a press and the re-render it causes.
  const busyRef = useRef(false);

  const shownFields = new Set<string>([...getStep(step).fields, ...extraFields]);
  const unshownError = Object.entries(errors).find(([field]) => !shownFields.has(field))?.[1];

  function reject(fields: FieldErrors) {
    setErrors(fields);
    setRejections((count) => count + 1);
  }

  function clearError(field: string) {
    setErrors((current) => {
      if (!(field in current)) return current;
      const rest = { ...current };
      delete rest[field];
      return rest;
    });
  }

  function validate(input: ClientAnswers): ClientAnswers | undefined {
    const parsed = getStep(step).schema.safeParse(input);
    if (!parsed.success) {
      reject(fieldErrors(parsed.error));
      return undefined;
    }
    const answers: ClientAnswers = parsed.data;
    const crossField = validateStepAgainstLead(step, answers, lead.answers, businessToday());
    if (Object.keys(crossField).length > 0) {
      reject(crossField);
      return undefined;
    }
    setErrors({});
    return answers;
  }

  async function run(work: () => Promise<void>) {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setFailure(undefined);
    try {
      await work();
    } catch (error) {
      if (isSessionExpired(error)) {
        expireSession();
      } else if (error instanceof ApiRequestError && Object.keys(error.fields).length > 0) {
        reject(error.fields);
      } else {
        setFailure(GENERIC_ERROR);
        postClientLog({ pretext: `Saving step ${step} failed`, text: describeError(error), type: 'error' });
      }
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  async function persist(answers: ClientAnswers, destination: Destination) {
    const { nextStep } = await mutateAsync({ step, answers });
    await navigate(await destination(nextStep));
  }

  return {
    lead,
    errors,
    formError: failure ?? unshownError,
    busy,
    rejections,
    clearError,
    reject,
    validate,
    submit(prepare, destination = toNextStep) {
      void run(async () => {
        const input = typeof prepare === 'function' ? await prepare() : prepare;
        const answers = input && validate(input);
        if (answers) await persist(answers, destination);
      });
    },
    save(answers, destination = toNextStep) {
      void run(() => persist(answers, destination));
    },
    keepSaved(destination = toNextStep) {
      void run(async () => {
        await navigate(await destination(lead.nextStep));
      });
    },
  };
}
