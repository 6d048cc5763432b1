import { PAY_FREQUENCIES } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';

export default function PayfreequencyStep() {
  return <ChoiceStep step="payfreequency" field="incomePaymentFrequency" options={PAY_FREQUENCIES} />;
}
