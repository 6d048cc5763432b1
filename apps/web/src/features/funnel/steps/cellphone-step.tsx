import { FormField } from '@/components/form/form-field';
import { PhoneField } from '@/components/form/phone-field';
import { formatPhoneMask } from '@/lib/phone-mask';
import { StepScreen } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';

/** The personal phone number, typed into the (999) 999-9999 mask. */
export default function CellphoneStep() {
  const form = useStepForm<{ phone: string }>('cellphone', {
    defaultValues: (lead) => ({ phone: formatPhoneMask(savedText(lead.answers.phone)) }),
  });
  return (
    <StepScreen step="cellphone" form={form} onSubmit={() => form.submitStep()}>
      <FormField
        form={form.form}
        name="phone"
        render={(field) => (
          <PhoneField
            {...field}
            label="Phone number"
            hint="A US mobile or home number where lenders can reach you."
          />
        )}
      />
    </StepScreen>
  );
}
