import { EMPLOYER_TENURES } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';

export default function EmptimeStep() {
  return <ChoiceStep step="emptime" field="currentCompanyDuration" options={EMPLOYER_TENURES} />;
}
