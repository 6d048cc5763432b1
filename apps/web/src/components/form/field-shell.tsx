import type { LabelHTMLAttributes, ReactNode } from 'react';
import { FieldError } from './field-error';
import { describedBy, fieldIds } from './field-ids';
import styles from './field.module.css';

interface FieldShellProps {
  id: string;
  label: string;
  /** The label's props, where a library owns them (downshift's combobox); by default it names the control `id`. */
  labelProps?: LabelHTMLAttributes<HTMLLabelElement>;
  hint?: ReactNode;
  error?: string | undefined;
  /** With `status`, a polite live region under the control, present (empty) from the first render. */
  withStatus?: boolean;
  status?: ReactNode;
  /** The control. */
  children: ReactNode;
  /** Anything after the status region (a combobox's announcement of its suggestions). */
  after?: ReactNode;
}

/** What every labelled field of `components/form` shows around its control: label, hint, error and status. */
export function FieldShell({
  id,
  label,
  labelProps = { htmlFor: id, className: styles.label },
  hint,
  error,
  withStatus = false,
  status,
  children,
  after,
}: FieldShellProps) {
  const ids = fieldIds(id);
  return (
    <div className={styles.field}>
      <label {...labelProps}>{label}</label>
      {hint && (
        <p id={ids.hint} className={styles.hint}>
          {hint}
        </p>
      )}
      {children}
      <FieldError id={ids.error} message={error} />
      {withStatus && (
        <div className={styles.status} aria-live="polite">
          {status}
        </div>
      )}
      {after}
    </div>
  );
}

/** The accessibility props that tie a control to its shell's hint and error. */
export function controlAria(id: string, { hint, error }: { hint?: ReactNode; error?: string | undefined }) {
  const ids = fieldIds(id);
  return {
    'aria-invalid': error ? true : undefined,
    'aria-describedby': describedBy(hint && ids.hint, error && ids.error),
  };
}

/** Splits a field's props into what its shell shows (label, hint, error, status) and the rest, for the control. */
export function splitShellProps<
  P extends { id: string; label: string; hint?: ReactNode; error?: string | undefined; status?: ReactNode },
>({ id, label, hint, error, status, ...control }: P) {
  return { shell: { id, label, hint, error, status }, control };
}
