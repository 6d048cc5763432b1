import { useState } from 'react';
import { DEFAULT_LOAN_AMOUNT, LOAN_AMOUNTS } from '@funnel/contracts/options';
import { SelectField } from '@/components/form/select-field';
import { StepScreen } from '../components/step-screen';
import { SuggestField } from '../components/suggest-field';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';

/**
 * First and last name. A lead created from a deep link has a loan reason but no amount, so the amount is asked
 * here in that case (spec §2).
 */
export default function LgnameStep() {
  const form = useStepForm('lgname');
  const { answers } = form.lead;
  const asksAmount = answers.amount === undefined;
  const [amount, setAmount] = useState(String(DEFAULT_LOAN_AMOUNT));
  const [firstName, setFirstName] = useState(() => savedText(answers.firstName));
  const [lastName, setLastName] = useState(() => savedText(answers.lastName));

  return (
    <StepScreen
      step="lgname"
      form={form}
      onSubmit={() => form.submit({ firstName, lastName, ...(asksAmount ? { amount: Number(amount) } : {}) })}
    >
      {asksAmount && (
        <SelectField
          id="amount"
          label="How much do you need?"
          options={LOAN_AMOUNTS}
          value={amount}
          onValueChange={(value) => {
            setAmount(value);
            form.clearError('amount');
          }}
          error={form.errors.amount}
        />
      )}
      <SuggestField
        id="firstName"
        label="First name"
        suggest="first_name"
        autoComplete="given-name"
        value={firstName}
        onValueChange={(value) => {
          setFirstName(value);
          form.clearError('firstName');
        }}
        error={form.errors.firstName}
      />
      <SuggestField
        id="lastName"
        label="Last name"
        suggest="last_name"
        autoComplete="family-name"
        value={lastName}
        onValueChange={(value) => {
          setLastName(value);
          form.clearError('lastName');
        }}
        error={form.errors.lastName}
      />
    </StepScreen>
  );
}
