import { useEffect, useRef, useState } from 'react';
import type * as z from 'zod';
import { fieldErrors } from '@funnel/contracts/errors';
import type { PrivacyRequestResult } from '@funnel/contracts/privacy';
import { focusFirstInvalid } from '@/components/form/focus-first-invalid';
import { ApiRequestError } from '@/lib/api-request-error';
import { GENERIC_ERROR } from '@/lib/generic-error';

/** What the alert after a submit says: the server's message, and whether it is good news. */
export interface RequestOutcome {
  kind: 'success' | 'error';
  message: string;
}

interface PrivacyRequestFormOptions<F extends string, S extends z.ZodType> {
  /** Every field as the visitor types it; also what the form goes back to after an accepted request. */
  initialValues: Record<F, string>;
  /** The contracts schema the BFF runs, so the browser refuses the same input with the same messages. */
  schema: S;
  send: (payload: z.output<S>) => Promise<PrivacyRequestResult>;
}

/**
 * The state and submit logic both privacy forms share (spec §2, §5, §8): validate with the contracts schema and
 * show each message next to its field; otherwise send, and answer with an alert carrying the server's message.
 * Input the server refuses (400 with `fields`) lands next to the fields the same way; anything else that goes
 * wrong gets the alert with the error icon.
 */
export function usePrivacyRequestForm<F extends string, S extends z.ZodType>({
  initialValues,
  schema,
  send,
}: PrivacyRequestFormOptions<F, S>) {
  const [values, setValues] = useState(initialValues);
  const [errors, setErrors] = useState<Partial<Record<string, string>>>({});
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<RequestOutcome | null>(null);
  const [rejections, setRejections] = useState(0);
  const busyRef = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);

  useEffect(() => {
    if (rejections > 0) focusFirstInvalid(formRef.current);
  }, [rejections]);

  function reject(fields: Record<string, string>) {
    setErrors(fields);
    setRejections((count) => count + 1);
  }

  function setValue(field: F, value: string) {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  }

  async function submit() {
    if (busyRef.current) return;
    const parsed = schema.safeParse(values);
    if (!parsed.success) {
      reject(fieldErrors(parsed.error));
      return;
    }
    busyRef.current = true;
    setBusy(true);
    try {
      const result = await send(parsed.data);
      // Spec §7: status 200 is success; the alert shows whatever message the server gave.
      if (result.status === 200) {
        setValues(initialValues);
        setErrors({});
        setOutcome({ kind: 'success', message: result.message });
      } else {
        setOutcome({ kind: 'error', message: result.message });
      }
    } catch (error) {
      const fields = error instanceof ApiRequestError ? error.fields : {};
      const known = Object.keys(fields).filter((field) => field in initialValues);
      if (known.length > 0) {
        reject(Object.fromEntries(known.map((field) => [field, fields[field] as string])));
      } else {
        // A 4xx (too many requests) says what to do; a network failure or 5xx gets the generic sentence.
        const message =
          error instanceof ApiRequestError && error.isClientError ? error.message : GENERIC_ERROR;
        setOutcome({ kind: 'error', message });
      }
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  return {
    formRef,
    values,
    errors,
    busy,
    outcome,
    setValue,
    submit,
    dismissOutcome: () => setOutcome(null),
  };
}
