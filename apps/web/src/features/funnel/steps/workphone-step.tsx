import { FormField } from '@/components/form/form-field';
import { PhoneField } from '@/components/form/phone-field';
import { formatPhoneMask } from '@/lib/phone-mask';
import { StepScreen } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';

/** The employer's phone number; it must differ from the personal one (contracts' cross-field rule). */
export default function WorkphoneStep() {
  const form = useStepForm<{ employerPhone: string }>('workphone', {
    defaultValues: (lead) => ({ employerPhone: formatPhoneMask(savedText(lead.answers.employerPhone)) }),
  });
  return (
    <StepScreen step="workphone" form={form} onSubmit={() => form.submitStep()}>
      <FormField
        form={form.form}
        name="employerPhone"
        render={(field) => (
          <PhoneField
            {...field}
            label="Work phone number"
            hint="Your employer's number, where a lender can confirm your employment."
            autoComplete="off"
          />
        )}
      />
    </StepScreen>
  );
}
