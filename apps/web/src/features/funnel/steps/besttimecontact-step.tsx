import { DEFAULT_CONTACT_TIME, CONTACT_TIMES } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';
import { StepIntro } from '../components/step-intro';

export default function BesttimecontactStep() {
  return (
    <ChoiceStep
      step="besttimecontact"
      field="bestTimeContact"
      options={CONTACT_TIMES}
      defaultValue={DEFAULT_CONTACT_TIME}
      intro={<StepIntro>When lenders call you about your request.</StepIntro>}
    />
  );
}
