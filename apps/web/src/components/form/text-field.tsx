import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { FieldShell, controlAria } from './field-shell';
import styles from './field.module.css';

export interface TextFieldProps extends Omit<
  InputHTMLAttributes<HTMLInputElement>,
  'value' | 'onChange' | 'id' | 'children'
> {
  id: string;
  label: string;
  value: string;
  onValueChange: (value: string) => void;
  error?: string;
  hint?: ReactNode;
  /** Shown under the control (a looked-up city, a bank name); announced politely as it changes. */
  status?: ReactNode;
  ref?: Ref<HTMLInputElement>;
}

/** A labelled text input with its hint and error wired up for assistive technology. */
export function TextField({
  id,
  label,
  value,
  onValueChange,
  error,
  hint,
  status,
  ref,
  ...input
}: TextFieldProps) {
  return (
    <FieldShell id={id} label={label} hint={hint} error={error} withStatus status={status}>
      <input
        ref={ref}
        id={id}
        className={styles.input}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        {...controlAria(id, { hint, error })}
        {...input}
      />
    </FieldShell>
  );
}
