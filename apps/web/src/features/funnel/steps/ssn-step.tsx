import { useState } from 'react';
import { SUBMIT_BUTTONS } from '@funnel/contracts/consent';
import { formatSsn } from '@funnel/contracts/rules/ssn';
import { FormField } from '@/components/form/form-field';
import { TextField } from '@/components/form/text-field';
import { ConsentText } from '../components/consent-text';
import { SavedAnswer, lastFour } from '../components/saved-answer';
import { StepScreen } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { afterLastStep, useSubmitApplication } from '../hooks/use-submit-application';

/**
 * The Social Security Number, typed into the xxx-xx-xxxx mask, and the consent the final button gives: Request
 * Funds saves the number, then submits the application and opens the waiting screen.
 */
export default function SsnStep() {
  const form = useStepForm<{ socialSecurityNumber: string }>('ssn', {
    defaultValues: () => ({ socialSecurityNumber: '' }),
  });
  const destination = afterLastStep(useSubmitApplication('REQUEST_FUNDS'));
  const masked = form.lead.masked.socialSecurityNumber;
  const [replacing, setReplacing] = useState(false);
  const onFile = masked !== undefined && !replacing;

  return (
    <StepScreen
      step="ssn"
      form={form}
      submitLabel={SUBMIT_BUTTONS.REQUEST_FUNDS}
      busyLabel="Sending your request…"
      onSubmit={() => (onFile ? form.keepSaved(destination) : form.submitStep(undefined, destination))}
      after={<ConsentText button="REQUEST_FUNDS" />}
    >
      {onFile ? (
        <SavedAnswer replaceLabel="Enter a different number" onReplace={() => setReplacing(true)}>
          Your Social Security Number ending in {lastFour(masked)} is on file.
        </SavedAnswer>
      ) : (
        <FormField
          form={form.form}
          name="socialSecurityNumber"
          render={(field) => (
            <TextField
              {...field}
              label="Social Security Number"
              hint="Lenders use it to confirm who you are. It is encrypted as soon as it reaches us."
              inputMode="numeric"
              autoComplete="off"
              placeholder="xxx-xx-xxxx"
              autoFocus={replacing}
              onValueChange={(text) => field.onValueChange(formatSsn(text))}
            />
          )}
        />
      )}
    </StepScreen>
  );
}
