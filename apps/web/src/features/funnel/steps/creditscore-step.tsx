import { CREDIT_SCORE_BANDS } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';
import { StepIntro } from '../components/step-intro';

export default function CreditscoreStep() {
  return (
    <ChoiceStep
      step="creditscore"
      field="creditScoreRating"
      options={CREDIT_SCORE_BANDS}
      intro={<StepIntro>Your best estimate is fine.</StepIntro>}
    />
  );
}
