import { HOME_OWNERSHIP } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';

export default function OwnhomeStep() {
  return <ChoiceStep step="ownhome" field="residenceOwnership" options={HOME_OWNERSHIP} />;
}
