import { useCallback, useEffect, useRef, useState } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import { ApiRequestError } from '@/lib/api-request-error';
import { focusFirstInvalid } from './focus-first-invalid';
import type { FieldMessages } from './schema-resolver';

interface SchemaFormOptions<V extends FieldValues> {
  defaultValues: DefaultValues<V>;
  resolver: Resolver<V, unknown, FieldValues>;
  /**
   * A failure that is not a refusal of some of the form's fields (a network error, a 5xx, a refusal naming no
   * field of this form). Refused fields of this form are shown beside them without it.
   */
  onFailure: (error: unknown, unknownFields: FieldMessages) => void;
}

export interface SchemaForm<V extends FieldValues> {
  form: UseFormReturn<V, unknown, FieldValues>;
  /** The `<form>` element's ref callback: the form is searched for the first invalid control after a refusal. */
  attachForm: (form: HTMLFormElement | null) => void;
  /** True from the press until the work (validation, save, navigation) is over; presses meanwhile are ignored. */
  busy: boolean;
  /** Validates, then runs `onValid` with the schema's output while busy. */
  submit: (onValid: (output: FieldValues) => unknown) => void;
  /** Runs `work` while busy, with the same failure handling as a submit. */
  run: (work: () => unknown) => void;
}

/**
 * The one form engine of the app (steps, landing form, privacy forms): react-hook-form over a contracts schema,
 * the busy flag, server field errors mapped onto the form, and focus on the first invalid field after any refusal.
 * Errors are checked on submit only and a field's message goes away once it is changed, so a visitor is never
 * told off while still typing.
 */
export function useSchemaForm<V extends FieldValues>({
  defaultValues,
  resolver,
  onFailure,
}: SchemaFormOptions<V>): SchemaForm<V> {
  const form = useForm<V, unknown, FieldValues>({
    defaultValues,
    resolver,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    // The DOM search below also reaches groups (radio cards, the date grid) and messages on no single control.
    shouldFocusError: false,
  });
  // A ref, not state: setting state from a ref callback made React render the whole screen again, at once, in
  // the task that commits it (the hydration's longest, docs/adr/0019-html-first-borrower-screens.md).
  const formElement = useRef<HTMLFormElement | null>(null);
  const attachForm = useCallback((element: HTMLFormElement | null) => {
    formElement.current = element;
  }, []);
  const [busy, setBusy] = useState(false);
  const [rejections, setRejections] = useState(0);
  // `busy` drives rendering; the ref closes the gap between a press and the re-render it causes.
  const busyRef = useRef(false);

  useEffect(() => {
    if (rejections > 0) focusFirstInvalid(formElement.current);
  }, [rejections]);

  /** Shows the server's messages beside their fields and moves focus to the first one. */
  function reject(fields: FieldMessages) {
    form.clearErrors();
    for (const [name, message] of Object.entries(fields)) {
      form.setError(name as Path<V>, { type: 'server', message });
    }
    setRejections((count) => count + 1);
  }

  async function guarded(work: () => Promise<unknown>) {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    try {
      await work();
    } catch (error) {
      const fields = error instanceof ApiRequestError ? error.fields : {};
      const known = Object.entries(fields).filter(([name]) => name in defaultValues);
      const unknown = Object.entries(fields).filter(([name]) => !(name in defaultValues));
      if (known.length > 0) reject(Object.fromEntries(known));
      if (known.length === 0 || unknown.length > 0) onFailure(error, Object.fromEntries(unknown));
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  return {
    form,
    attachForm,
    busy,
    submit(onValid) {
      void guarded(async () => {
        let refused = false;
        await form.handleSubmit(
          async (output) => {
            await onValid(output);
          },
          () => {
            refused = true;
          },
        )();
        // Counted once react-hook-form has published the errors, so the focus search finds them rendered.
        if (refused) setRejections((count) => count + 1);
      });
    },
    run(work) {
      void guarded(async () => {
        await work();
      });
    },
  };
}
