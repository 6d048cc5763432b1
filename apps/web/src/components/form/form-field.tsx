import type { ReactNode } from 'react';
import { useController, type FieldValues, type Path, type UseFormReturn } from 'react-hook-form';

/** What a control needs from the form: the props every field component of `components/form` takes. */
export interface BoundField<T> {
  id: string;
  value: T;
  onValueChange: (value: T) => void;
  onBlur: () => void;
  error: string | undefined;
  ref: (instance: HTMLElement | null) => void;
}

interface FormFieldProps<V extends FieldValues, N extends Path<V>> {
  form: UseFormReturn<V, unknown, FieldValues>;
  name: N;
  /** Messages that go away with this field's (a whole date of birth's with each of its selects). */
  clears?: readonly Path<V>[];
  render: (field: BoundField<V[N]>) => ReactNode;
}

/**
 * One field of a `useSchemaForm` form: its value, its message, and its ref. A change clears the field's message
 * (validation waits for the next submit).
 */
export function FormField<V extends FieldValues, N extends Path<V>>({
  form,
  name,
  clears = [],
  render,
}: FormFieldProps<V, N>) {
  const { field, fieldState } = useController({ control: form.control, name });
  return render({
    id: name,
    value: field.value,
    onValueChange: (value) => {
      field.onChange(value);
      form.clearErrors([name, ...clears]);
    },
    onBlur: field.onBlur,
    error: fieldState.error?.message,
    ref: field.ref,
  });
}
