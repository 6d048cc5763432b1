import { DEFAULT_BANK_TENURE, BANK_TENURES } from '@funnel/contracts/options';
import { ChoiceStep } from '../components/choice-step';

export default function BanktimeStep() {
  return (
    <ChoiceStep
      step="banktime"
      field="currentBankDuration"
      options={BANK_TENURES}
      defaultValue={DEFAULT_BANK_TENURE}
    />
  );
}
