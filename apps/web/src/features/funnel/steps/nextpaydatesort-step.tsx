import { PayDateForm } from '../components/pay-date-form';

/** The pay-date screen for a returning visitor, greeted by first name (decisions.md). */
export default function NextpaydatesortStep() {
  return <PayDateForm greeting />;
}
