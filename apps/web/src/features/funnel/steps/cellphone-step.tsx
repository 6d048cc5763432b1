import { useState } from 'react';
import { PhoneField } from '@/components/form/phone-field';
import { formatPhoneMask } from '@/lib/phone-mask';
import { StepScreen } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';

/** The personal phone number, typed into the (999)-999-9999 mask. */
export default function CellphoneStep() {
  const form = useStepForm('cellphone');
  const [phone, setPhone] = useState(() => formatPhoneMask(savedText(form.lead.answers.phone)));
  return (
    <StepScreen step="cellphone" form={form} onSubmit={() => form.submit({ phone })}>
      <PhoneField
        id="phone"
        label="Phone number"
        hint="A US mobile or home number where lenders can reach you."
        value={phone}
        onValueChange={(value) => {
          setPhone(value);
          form.clearError('phone');
        }}
        error={form.errors.phone}
      />
    </StepScreen>
  );
}
