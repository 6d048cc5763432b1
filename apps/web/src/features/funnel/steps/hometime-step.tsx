import { RESIDENCE_DURATIONS } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';

export default function HometimeStep() {
  return (
    <ChoiceStep step="hometime" field="currentResidenceDuration" options={RESIDENCE_DURATIONS} columns={2} />
  );
}
