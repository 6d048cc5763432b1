import { useState, type ReactNode } from 'react';
import type { ClientField } from '@funnel/contracts/fields';
import type { Option } from '@funnel/contracts/options';
import type { StepName } from '@funnel/contracts/steps';
import { ChoiceGroup } from '@/components/form/choice-group';
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

/** A step that asks one question with a few answers: the saved answer, else the default, is preselected. */
export function ChoiceStep<V extends string | number>({
  step,
  field,
  options,
  defaultValue,
  columns,
  intro,
}: ChoiceStepProps<V>) {
  const form = useStepForm(step);
  const [value, setValue] = useState<V | undefined>(
    () => savedOption(form.lead.answers[field], options) ?? defaultValue,
  );
  return (
    <StepScreen step={step} form={form} onSubmit={() => form.submit({ [field]: value })}>
      {intro}
      <ChoiceGroup
        name={field}
        labelledBy={stepHeadingId(step)}
        options={options}
        value={value}
        onChange={(next) => {
          setValue(next);
          form.clearError(field);
        }}
        error={form.errors[field]}
        columns={columns}
      />
    </StepScreen>
  );
}
