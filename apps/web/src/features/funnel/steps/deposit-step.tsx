import { DEFAULT_DIRECT_DEPOSIT, DIRECT_DEPOSIT_OPTIONS } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';
import { StepIntro } from '../components/step-intro';

export default function DepositStep() {
  return (
    <ChoiceStep
      step="deposit"
      field="getDirectDeposit"
      options={DIRECT_DEPOSIT_OPTIONS}
      defaultValue={DEFAULT_DIRECT_DEPOSIT}
      intro={<StepIntro>Whether your pay arrives in your bank account electronically.</StepIntro>}
    />
  );
}
