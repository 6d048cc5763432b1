import type { ReactNode } from 'react';
import type { ClientField } from '@funnel/contracts/fields';
import type { Option } from '@funnel/contracts/options';
import type { StepName } from '@funnel/contracts/steps';
import { ChoiceGroup } from '@/components/form/choice-group';
import { FormField } from '@/components/form/form-field';
import { useStepForm } from '../hooks/use-step-form';
import { savedOption } from '../utils/answers';
import { StepScreen, stepHeadingId } from './step-screen';

interface ChoiceStepProps<V extends string | number> {
  step: StepName;
  field: ClientField;
  options: readonly Option<V>[];
  /** Preselected when nothing is saved yet (spec §9 defaults). */
  defaultValue?: V;
  columns?: 1 | 2;
  intro?: ReactNode;
}

/**
 * A step that asks one question with a few answers: the saved answer, else the default, is preselected. A tap on
 * an answer saves it and moves on; with the keyboard, arrow keys choose and Enter or Next saves.
 */
export function ChoiceStep<V extends string | number>({
  step,
  field,
  options,
  defaultValue,
  columns,
  intro,
}: ChoiceStepProps<V>) {
  const form = useStepForm<Record<string, V | undefined>>(step, {
    defaultValues: (lead) => ({ [field]: savedOption(lead.answers[field], options) ?? defaultValue }),
  });
  return (
    <StepScreen step={step} form={form} onSubmit={() => form.submitStep()}>
      {intro}
      <FormField
        form={form.form}
        name={field}
        render={(answer) => (
          <ChoiceGroup
            name={field}
            labelledBy={stepHeadingId(step)}
            options={options}
            value={answer.value}
            onChange={answer.onValueChange}
            onPick={(value) => {
              answer.onValueChange(value);
              form.submitStep();
            }}
            error={answer.error}
            columns={columns}
          />
        )}
      />
    </StepScreen>
  );
}
