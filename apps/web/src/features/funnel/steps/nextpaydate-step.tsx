import { PayDateForm } from '../components/pay-date-form';

export default function NextpaydateStep() {
  return <PayDateForm />;
}
