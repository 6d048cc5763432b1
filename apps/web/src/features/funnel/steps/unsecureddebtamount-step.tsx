import { UNSECURED_DEBT_BANDS } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';
import { StepIntro } from '../components/step-intro';

export default function UnsecureddebtamountStep() {
  return (
    <ChoiceStep
      step="unsecureddebtamount"
      field="unsecuredDebtAmount"
      options={UNSECURED_DEBT_BANDS}
      intro={<StepIntro>Credit cards, medical bills and other debt not backed by property.</StepIntro>}
    />
  );
}
