import { MONTHLY_INCOME_BANDS } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';
import { StepIntro } from '../components/step-intro';

export default function GrossincomeStep() {
  return (
    <ChoiceStep
      step="grossincome"
      field="monthlyIncome"
      options={MONTHLY_INCOME_BANDS}
      intro={<StepIntro>Your income before taxes, from all sources.</StepIntro>}
    />
  );
}
