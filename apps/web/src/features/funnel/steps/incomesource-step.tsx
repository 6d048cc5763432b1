import { INCOME_SOURCES } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';

export default function IncomesourceStep() {
  return <ChoiceStep step="incomesource" field="incomeSource" options={INCOME_SOURCES} />;
}
