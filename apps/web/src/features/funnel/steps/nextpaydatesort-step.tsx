import { PayDateForm } from '../components/pay-date-form';

/** The pay-date screen for a returning visitor, greeted by first name (docs/product-rules.md §returning-visitors-and-sessions). */
export default function NextpaydatesortStep() {
  return <PayDateForm greeting />;
}
