import { OWN_CAR_OPTIONS } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';

export default function OwncarStep() {
  return <ChoiceStep step="owncar" field="ownCar" options={OWN_CAR_OPTIONS} />;
}
