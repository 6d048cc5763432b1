import { useState } from 'react';
import { FormField } from '@/components/form/form-field';
import { TextField } from '@/components/form/text-field';
import { SavedAnswer, lastFour } from '../components/saved-answer';
import { StepScreen } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';

/** The bank account number, digits only. */
export default function BankaccountStep() {
  const form = useStepForm<{ bankAccount: string }>('bankaccount', {
    defaultValues: () => ({ bankAccount: '' }),
  });
  const masked = form.lead.masked.bankAccount;
  const [replacing, setReplacing] = useState(false);
  const onFile = masked !== undefined && !replacing;
  return (
    <StepScreen
      step="bankaccount"
      form={form}
      onSubmit={() => (onFile ? form.keepSaved() : form.submitStep())}
    >
      {onFile ? (
        <SavedAnswer replaceLabel="Enter a different account number" onReplace={() => setReplacing(true)}>
          Your account number ending in {lastFour(masked)} is on file.
        </SavedAnswer>
      ) : (
        <FormField
          form={form.form}
          name="bankAccount"
          render={(field) => (
            <TextField
              {...field}
              label="Account number"
              hint="4 to 17 digits, printed after the routing number on your checks."
              inputMode="numeric"
              autoComplete="off"
              autoFocus={replacing}
              // Digits only, but never cut: a number too long gets the spec's message (docs/product-rules.md §bank-details: 4 to 17
              // digits), not a silently shorter account.
              onValueChange={(text) => field.onValueChange(text.replace(/\D/g, ''))}
            />
          )}
        />
      )}
    </StepScreen>
  );
}
