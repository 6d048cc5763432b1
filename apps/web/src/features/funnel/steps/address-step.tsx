import { ZIP_CODE_NOT_FOUND } from '@funnel/contracts/messages';
import { Combobox } from '@/components/form/combobox';
import { FormField } from '@/components/form/form-field';
import { FieldRejection } from '@/components/form/schema-resolver';
import { ZipCodeField } from '@/components/form/zip-code-field';
import { useZipPlace } from '@/lib/get-zip-place';
import { useAddressSuggestions } from '../api/get-address-suggestions';
import { StepScreen } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';

/**
 * Street address with suggestions, and the ZIP code from the landing form (asked here when the lead came from a
 * deep link). The BFF derives city and state from the ZIP code.
 */
export default function AddressStep() {
  const form = useStepForm<{ streetAddress: string; zipCode: string }>('address', {
    defaultValues: ({ answers }) => ({
      streetAddress: savedText(answers.streetAddress),
      zipCode: savedText(answers.zipCode),
    }),
    // A ZIP code the lookup does not know is refused before the rest is checked, as it was shown already.
    toAnswers: (values) => (zip.notFound ? new FieldRejection({ zipCode: ZIP_CODE_NOT_FOUND }) : values),
  });
  const [streetAddress, zipCode] = form.form.watch(['streetAddress', 'zipCode']);
  const zip = useZipPlace(zipCode);
  const suggestions = useAddressSuggestions(streetAddress, zipCode);

  return (
    <StepScreen step="address" form={form} onSubmit={() => form.submitStep()}>
      <FormField
        form={form.form}
        name="streetAddress"
        render={(field) => (
          <Combobox
            {...field}
            label="Street address"
            hint="House number and street, e.g. 120 Main St Apt 4"
            autoComplete="address-line1"
            suggestions={suggestions}
          />
        )}
      />
      <FormField
        form={form.form}
        name="zipCode"
        render={(field) => <ZipCodeField {...field} place={zip.place} notFound={zip.notFound} />}
      />
    </StepScreen>
  );
}
