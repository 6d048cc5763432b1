import { useState } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { BANK_NAME_REQUIRED, ROUTING_NUMBER_INVALID } from '@funnel/contracts/messages';
import { isValidRoutingNumber } from '@funnel/contracts/rules/aba';
import { getStep } from '@funnel/contracts/steps';
import { FormField } from '@/components/form/form-field';
import { TextField } from '@/components/form/text-field';
import { FieldRejection } from '@/components/form/schema-resolver';
import { ApiRequestError } from '@/lib/api-request-error';
import { routingLookupOptions, useRoutingLookup } from '../api/lookup-routing-number';
import { SavedAnswer, lastFour } from '../components/saved-answer';
import { StepScreen } from '../components/step-screen';
import { useStepForm } from '../hooks/use-step-form';
import { savedText } from '../utils/answers';

const ROUTING_LENGTH = 9;

/**
 * The routing number: digits only, looked up at nine digits to show the bank. A bad check digit is refused at
 * once; a valid number no directory knows asks for the bank name instead; a lookup that failed runs again on
 * submit, which waits for it.
 */
export default function AbaStep() {
  const queryClient = useQueryClient();
  const form = useStepForm<{ routingNumber: string; bankName: string }>('aba', {
    defaultValues: () => ({ routingNumber: '', bankName: '' }),
    async toAnswers({ routingNumber, bankName }) {
      const routing = getStep('aba').schema.shape.routingNumber.safeParse(routingNumber);
      if (!routing.success) {
        return new FieldRejection({
          routingNumber: routing.error.issues[0]?.message ?? ROUTING_NUMBER_INVALID,
        });
      }
      if (lookup.data) return { routingNumber, bankName: lookup.data.bankName };
      if (unknownBank) return { routingNumber, bankName };
      try {
        const bank = await queryClient.fetchQuery(routingLookupOptions(routingNumber));
        return { routingNumber, bankName: bank.bankName };
      } catch (error) {
        const unknown = error instanceof ApiRequestError && error.status === 404;
        return new FieldRejection(
          unknown ? { bankName: BANK_NAME_REQUIRED } : { routingNumber: ROUTING_NUMBER_INVALID },
        );
      }
    },
  });
  const { answers, masked } = form.lead;
  const [replacing, setReplacing] = useState(false);
  const routingNumber = form.form.watch('routingNumber');
  const lookup = useRoutingLookup(routingNumber);
  const onFile = masked.routingNumber !== undefined && !replacing;
  const badCheckDigit = routingNumber.length === ROUTING_LENGTH && !isValidRoutingNumber(routingNumber);
  const unknownBank = lookup.error instanceof ApiRequestError && lookup.error.status === 404;

  function bankStatus() {
    if (lookup.isFetching) return 'Looking up your bank…';
    if (lookup.data) return `Bank: ${lookup.data.bankName}`;
    return undefined;
  }

  return (
    <StepScreen step="aba" form={form} onSubmit={() => (onFile ? form.keepSaved() : form.submitStep())}>
      {onFile ? (
        <SavedAnswer replaceLabel="Enter a different routing number" onReplace={() => setReplacing(true)}>
          Your routing number ending in {lastFour(masked.routingNumber ?? '')}
          {answers.bankName ? ` (${savedText(answers.bankName)})` : ''} is on file.
        </SavedAnswer>
      ) : (
        <>
          <FormField
            form={form.form}
            name="routingNumber"
            clears={['bankName']}
            render={(field) => (
              <TextField
                {...field}
                label="Routing number"
                hint="The 9-digit number at the bottom left of your checks."
                inputMode="numeric"
                autoComplete="off"
                autoFocus={replacing}
                onValueChange={(text) =>
                  field.onValueChange(text.replace(/\D/g, '').slice(0, ROUTING_LENGTH))
                }
                error={field.error ?? (badCheckDigit ? ROUTING_NUMBER_INVALID : undefined)}
                status={bankStatus()}
              />
            )}
          />
          {unknownBank && (
            <FormField
              form={form.form}
              name="bankName"
              render={(field) => (
                <TextField
                  {...field}
                  label="Bank name"
                  hint="We could not find this routing number in our bank directory. Please type your bank's name."
                  autoComplete="off"
                />
              )}
            />
          )}
        </>
      )}
    </StepScreen>
  );
}
