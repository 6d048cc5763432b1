import { useState } from 'react';
import { ZIP_CODE_NOT_FOUND } from '@funnel/contracts/messages';
import { Combobox } from '@/components/form/combobox';
import { ZipCodeField } from '@/components/form/zip-code-field';
import { ApiRequestError } from '@/lib/api-request-error';
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
  const form = useStepForm('address');
  const { answers } = form.lead;
  const [streetAddress, setStreetAddress] = useState(() => savedText(answers.streetAddress));
  const [zipCode, setZipCode] = useState(() => savedText(answers.zipCode));
  const place = useZipPlace(zipCode);
  const suggestions = useAddressSuggestions(streetAddress, zipCode);
  const zipNotFound = place.error instanceof ApiRequestError && place.error.status === 404;
  const zipError = form.errors.zipCode ?? (zipNotFound ? ZIP_CODE_NOT_FOUND : undefined);

  function submit() {
    if (zipNotFound) {
      form.reject({ ...form.errors, zipCode: ZIP_CODE_NOT_FOUND });
      return;
    }
    form.submit({ streetAddress, zipCode });
  }

  return (
    <StepScreen step="address" form={form} onSubmit={submit}>
      <Combobox
        id="streetAddress"
        label="Street address"
        hint="House number and street, e.g. 120 Main St Apt 4"
        autoComplete="address-line1"
        value={streetAddress}
        onValueChange={(value) => {
          setStreetAddress(value);
          form.clearError('streetAddress');
        }}
        suggestions={suggestions}
        error={form.errors.streetAddress}
      />
      <ZipCodeField
        id="zipCode"
        value={zipCode}
        onValueChange={(value) => {
          setZipCode(value);
          form.clearError('zipCode');
        }}
        place={place.data}
        error={zipError}
      />
    </StepScreen>
  );
}
