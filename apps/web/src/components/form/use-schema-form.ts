import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useRef, useState } from 'react';
import {
  useForm,
  type DefaultValues,
  type FieldErrors as FormFieldErrors,
  type FieldValues,
  type Path,
  type Resolver,
  type UseFormReturn,
} from 'react-hook-form';
import type * as z from 'zod';
import { ApiRequestError } from '@/lib/api-request-error';
import { focusFirstInvalid } from './focus-first-invalid';

/** Messages by field name, as the contracts' rules and the BFF's `{ error: { fields } }` give them. */
export type FieldMessages = Readonly<Record<string, string>>;

/** What `toInput` answers when the values cannot even be turned into the schema's input. */
export class FieldRejection {
  constructor(readonly fields: FieldMessages) {}
}

interface SchemaResolverOptions<V extends FieldValues, I> {
  /** The values as the controls hold them turned into the schema's input (a select's '1500' into 1500). */
  toInput?: (values: V) => I | FieldRejection | Promise<I | FieldRejection>;
  /** Rules the schema alone cannot decide (the step's cross-field rules), run once the schema passed. */
  check?: (output: unknown) => FieldMessages;
}

function toFormErrors<V extends FieldValues>(fields: FieldMessages): FormFieldErrors<V> {
  return Object.fromEntries(
    Object.entries(fields).map(([name, message]) => [name, { type: 'rule', message }]),
  ) as FormFieldErrors<V>;
}

/**
 * A react-hook-form resolver over a contracts schema (through `@hookform/resolvers/zod`), so the browser refuses
 * the same input with the same messages the BFF would. Its output is what gets sent.
 */
export function schemaResolver<V extends FieldValues, I = V>(
  schema: z.ZodType,
  { toInput, check }: SchemaResolverOptions<V, I> = {},
): Resolver<V, unknown, FieldValues> {
  const parse = zodResolver(schema as z.ZodType<FieldValues, FieldValues>);
  return async (values, context, options) => {
    const input = toInput ? await toInput(values) : values;
    if (input instanceof FieldRejection) return { values: {}, errors: toFormErrors<V>(input.fields) };
    const result = await parse(input as FieldValues, context, options as never);
    if (Object.keys(result.errors).length > 0 || !check) return result as never;
    const broken = check(result.values);
    return Object.keys(broken).length > 0
      ? { values: {}, errors: toFormErrors<V>(broken) }
      : (result as never);
  };
}

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
  const [formElement, setFormElement] = useState<HTMLFormElement | null>(null);
  const [busy, setBusy] = useState(false);
  const [rejections, setRejections] = useState(0);
  // `busy` drives rendering; the ref closes the gap between a press and the re-render it causes.
  const busyRef = useRef(false);

  useEffect(() => {
    if (rejections > 0) focusFirstInvalid(formElement);
  }, [rejections, formElement]);

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
    attachForm: setFormElement,
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
