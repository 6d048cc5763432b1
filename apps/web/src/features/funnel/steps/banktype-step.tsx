import { useState } from 'react';
import {
  BANK_ACCOUNT_TYPES,
  DEFAULT_BANK_ACCOUNT_TYPE,
  type BankAccountType,
} from '@funnel/contracts/options';
import { ChoiceGroup } from '@/components/form/choice-group';
import { Button } from '@/components/ui/button';
import { Dialog } from '@/components/ui/dialog';
import { StepScreen, stepHeadingId } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { savedOption } from '../utils/answers';

/**
 * Checking or savings. Lenders fund checking accounts far more often, so choosing Savings asks once whether
 * Checking was meant (spec §2).
 */
export default function BanktypeStep() {
  const form = useStepForm('banktype');
  const [accountType, setAccountType] = useState<BankAccountType>(
    () => savedOption(form.lead.answers.bankAccountType, BANK_ACCOUNT_TYPES) ?? DEFAULT_BANK_ACCOUNT_TYPE,
  );
  const [asking, setAsking] = useState(false);

  return (
    <StepScreen step="banktype" form={form} onSubmit={() => form.submit({ bankAccountType: accountType })}>
      <ChoiceGroup
        name="bankAccountType"
        labelledBy={stepHeadingId('banktype')}
        options={BANK_ACCOUNT_TYPES}
        value={accountType}
        onChange={(value) => {
          setAccountType(value);
          form.clearError('bankAccountType');
          if (value === 'SAVING') setAsking(true);
        }}
        error={form.errors.bankAccountType}
      />
      <Dialog
        open={asking}
        title="Did you mean 'Checking' as Bank account type?"
        onClose={() => setAsking(false)}
        actions={
          <>
            <Button variant="secondary" onClick={() => setAsking(false)}>
              Continue with selection
            </Button>
            <Button
              onClick={() => {
                setAccountType('CHECKING');
                setAsking(false);
              }}
            >
              Change to Checking
            </Button>
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
