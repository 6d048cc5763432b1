import { useState } from 'react';
import { US_STATES } from '@funnel/contracts/options';
import { Combobox } from '@/components/form/combobox';
import { FormField } from '@/components/form/form-field';
import { TextField } from '@/components/form/text-field';
import { SavedAnswer, lastFour } from '../components/saved-answer';
import { StepScreen } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';
import { stateSuggestions } from '../utils/state-suggestions';

const LICENSE_ID_MAX = 25;

/** The name of a saved state code ('CA' → 'California'), or the text as saved. */
function stateName(code: string): string {
  return US_STATES.find((state) => state.value === code)?.label ?? code;
}

/**
 * Driver's licence or state ID number, and the issuing state with an autocomplete over the contracts' states.
 * The state starts as the saved one, else the state of the borrower's address (docs/product-rules.md §option-lists), which most
 * licences come from; the borrower can change it.
 */
export default function DriveridStep() {
  const form = useStepForm<{ licenseID: string; issuingState: string }>('driverid', {
    defaultValues: ({ answers }) => ({
      licenseID: '',
      issuingState: stateName(savedText(answers.issuingState) || savedText(answers.state)),
    }),
  });
  const masked = form.lead.masked.licenseID;
  const savedState = stateName(savedText(form.lead.answers.issuingState));
  const [replacing, setReplacing] = useState(false);
  const onFile = masked !== undefined && !replacing;

  return (
    <StepScreen step="driverid" form={form} onSubmit={() => (onFile ? form.keepSaved() : form.submitStep())}>
      {onFile ? (
        <SavedAnswer replaceLabel="Enter a different ID" onReplace={() => setReplacing(true)}>
          Your ID ending in {lastFour(masked)}
          {savedState ? `, issued by ${savedState},` : ''} is on file.
        </SavedAnswer>
      ) : (
        <>
          <FormField
            form={form.form}
            name="licenseID"
            render={(field) => (
              <TextField
                {...field}
                label="Driver's license or state ID number"
                autoComplete="off"
                autoCapitalize="characters"
                spellCheck={false}
                maxLength={LICENSE_ID_MAX}
                autoFocus={replacing}
              />
            )}
          />
          <FormField
            form={form.form}
            name="issuingState"
            render={(field) => (
              <Combobox
                {...field}
                label="Issuing state"
                hint="Type the state's name or its 2-letter code."
                autoComplete="off"
                suggestions={stateSuggestions(field.value)}
              />
            )}
          />
        </>
      )}
    </StepScreen>
  );
}
