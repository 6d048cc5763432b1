import { useState } from 'react';
import { TextField } from '@/components/form/text-field';
import { SavedAnswer, lastFour } from '../components/saved-answer';
import { StepScreen } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';

/** decisions.md: 4 to 17 digits (NACHA's account number field). */
const ACCOUNT_MAX_DIGITS = 17;

/** The bank account number, digits only. */
export default function BankaccountStep() {
  const form = useStepForm('bankaccount');
  const masked = form.lead.masked.bankAccount;
  const [replacing, setReplacing] = useState(false);
  const [bankAccount, setBankAccount] = useState('');
  const onFile = masked !== undefined && !replacing;
  return (
    <StepScreen
      step="bankaccount"
      form={form}
      onSubmit={() => (onFile ? form.keepSaved() : form.submit({ bankAccount }))}
    >
      {onFile ? (
        <SavedAnswer replaceLabel="Enter a different account number" onReplace={() => setReplacing(true)}>
          Your account number ending in {lastFour(masked)} is on file.
        </SavedAnswer>
      ) : (
        <TextField
          id="bankAccount"
          label="Account number"
          hint="4 to 17 digits, printed after the routing number on your checks."
          inputMode="numeric"
          autoComplete="off"
          autoFocus={replacing}
          value={bankAccount}
          onValueChange={(text) => {
            setBankAccount(text.replace(/\D/g, '').slice(0, ACCOUNT_MAX_DIGITS));
            form.clearError('bankAccount');
          }}
          error={form.errors.bankAccount}
        />
      )}
    </StepScreen>
  );
}
