import { useState } from 'react';
import { StepScreen } from '../components/step-screen';
import { PhoneField } from '../components/phone-field';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';
import { formatPhoneMask } from '../utils/phone-mask';

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
