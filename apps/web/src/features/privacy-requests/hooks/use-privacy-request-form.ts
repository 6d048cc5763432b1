import { useState, type FormEvent } from 'react';
import type { DefaultValues } from 'react-hook-form';
import type * as z from 'zod';
import type { PrivacyRequestResult } from '@funnel/contracts/privacy';
import { schemaResolver } from '@/components/form/schema-resolver';
import { useSchemaForm } from '@/components/form/use-schema-form';
import { ApiRequestError } from '@/lib/api-request-error';
import { GENERIC_ERROR } from '@/lib/generic-error';

/** What the alert after a submit says: the server's message, and whether it is good news. */
export interface RequestOutcome {
  kind: 'success' | 'error';
  message: string;
}

interface PrivacyRequestFormOptions<V extends Record<string, string>, S extends z.ZodType> {
  /** Every field as the visitor types it; also what the form goes back to after an accepted request. */
  initialValues: V;
  /** The contracts schema the BFF runs, so the browser refuses the same input with the same messages. */
  schema: S;
  send: (payload: z.output<S>) => Promise<PrivacyRequestResult>;
}

/**
 * What both privacy forms share (spec §2, §5, §8), on the app's one form engine: the contracts schema's messages
 * next to their fields; otherwise send, and answer with an alert carrying the server's message. Input the server
 * refuses (400 with `fields`) lands next to the fields the same way; anything else that goes wrong gets the alert
 * with the error icon.
 */
export function usePrivacyRequestForm<V extends Record<string, string>, S extends z.ZodType>({
  initialValues,
  schema,
  send,
}: PrivacyRequestFormOptions<V, S>) {
  const [outcome, setOutcome] = useState<RequestOutcome | null>(null);
  const { form, attachForm, busy, submit } = useSchemaForm<V>({
    defaultValues: initialValues as DefaultValues<V>,
    resolver: schemaResolver<V>(schema),
    onFailure(error) {
      // A 4xx (too many requests) says what to do; a network failure or 5xx gets the generic sentence.
      const message = error instanceof ApiRequestError && error.isClientError ? error.message : GENERIC_ERROR;
      setOutcome({ kind: 'error', message });
    },
  });

  return {
    form,
    attachForm,
    busy,
    outcome,
    onSubmit(event: FormEvent) {
      event.preventDefault();
      submit(async (payload) => {
        const result = await send(payload as z.output<S>);
        // Spec §7: status 200 is success; the alert shows whatever message the server gave.
        if (result.status === 200) {
          form.reset(initialValues);
          setOutcome({ kind: 'success', message: result.message });
        } else {
          setOutcome({ kind: 'error', message: result.message });
        }
      });
    },
    dismissOutcome: () => setOutcome(null),
  };
}
