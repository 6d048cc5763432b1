import { useState } from 'react';
import { PhoneField } from '@/components/form/phone-field';
import { formatPhoneMask } from '@/lib/phone-mask';
import { StepScreen } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';

/** The employer's phone number; it must differ from the personal one (contracts' cross-field rule). */
export default function WorkphoneStep() {
  const form = useStepForm('workphone');
  const [employerPhone, setEmployerPhone] = useState(() =>
    formatPhoneMask(savedText(form.lead.answers.employerPhone)),
  );
  return (
    <StepScreen step="workphone" form={form} onSubmit={() => form.submit({ employerPhone })}>
      <PhoneField
        id="employerPhone"
        label="Work phone number"
        hint="Your employer's number, where a lender can confirm your employment."
        autoComplete="off"
        value={employerPhone}
        onValueChange={(value) => {
          setEmployerPhone(value);
          form.clearError('employerPhone');
        }}
        error={form.errors.employerPhone}
      />
    </StepScreen>
  );
}
