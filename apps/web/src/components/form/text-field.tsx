import type { InputHTMLAttributes, ReactNode, Ref } from 'react';
import { FieldError } from './field-error';
import { describedBy, fieldIds } from './field-ids';
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
  const ids = fieldIds(id);
  return (
    <div className={styles.field}>
      <label htmlFor={id} className={styles.label}>
        {label}
      </label>
      {hint && (
        <p id={ids.hint} className={styles.hint}>
          {hint}
        </p>
      )}
      <input
        ref={ref}
        id={id}
        className={styles.input}
        value={value}
        onChange={(event) => onValueChange(event.target.value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hint && ids.hint, error && ids.error)}
        {...input}
      />
      <FieldError id={ids.error} message={error} />
      <div className={styles.status} aria-live="polite">
        {status}
      </div>
    </div>
  );
}
