import { useState } from 'react';
import {
  BANK_ACCOUNT_TYPES,
  DEFAULT_BANK_ACCOUNT_TYPE,
  type BankAccountType,
} from '@funnel/contracts/options';
import { ChoiceGroup } from '@/components/form/choice-group';
import { FormField } from '@/components/form/form-field';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { StepScreen, stepHeadingId } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { savedOption } from '../utils/answers';

/**
 * Checking or savings. Lenders fund checking accounts far more often, so choosing Savings asks once whether
 * Checking was meant (spec §2). A tap on Checking saves and moves on; a tap on Savings moves on once the question
 * is answered.
 */
export default function BanktypeStep() {
  const form = useStepForm<{ bankAccountType: BankAccountType }>('banktype', {
    defaultValues: ({ answers }) => ({
      bankAccountType: savedOption(answers.bankAccountType, BANK_ACCOUNT_TYPES) ?? DEFAULT_BANK_ACCOUNT_TYPE,
    }),
  });
  const [asking, setAsking] = useState<'keyboard' | 'pointer'>();

  function answer(accountType: BankAccountType) {
    form.form.setValue('bankAccountType', accountType);
    form.form.clearErrors('bankAccountType');
  }

  /** The question's answer; it is final when Savings was tapped, as a tap on Checking is. */
  function settle(accountType: BankAccountType) {
    answer(accountType);
    const tapped = asking === 'pointer';
    setAsking(undefined);
    if (tapped) form.submitStep();
  }

  return (
    <StepScreen step="banktype" form={form} onSubmit={() => form.submitStep()}>
      <FormField
        form={form.form}
        name="bankAccountType"
        render={(field) => (
          <ChoiceGroup
            name="bankAccountType"
            labelledBy={stepHeadingId('banktype')}
            options={BANK_ACCOUNT_TYPES}
            value={field.value}
            onChange={(value) => {
              field.onValueChange(value);
              // A tap reports itself first (onPick); the change that follows it is not a keyboard's.
              if (value === 'SAVING') setAsking((current) => current ?? 'keyboard');
            }}
            onPick={(value) => {
              field.onValueChange(value);
              if (value === 'SAVING') setAsking('pointer');
              else form.submitStep();
            }}
            error={field.error}
          />
        )}
      />
      <Dialog
        open={asking !== undefined}
        title="Did you mean 'Checking' as Bank account type?"
        onClose={() => setAsking(undefined)}
        actions={
          <>
            <Button variant="secondary" onClick={() => settle('SAVING')}>
              Continue with selection
            </Button>
            <Button onClick={() => settle('CHECKING')}>Change to Checking</Button>
          </>
        }
      >
        <p>
          Banks are more likely to fund checking accounts. Most people get their pay into a checking account.
        </p>
      </Dialog>
    </StepScreen>
  );
}
