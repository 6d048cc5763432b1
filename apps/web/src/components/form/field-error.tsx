import styles from './field.module.css';

/**
 * A field's error, next to the field. `role="alert"` makes screen readers announce it the moment it appears; the
 * control points at it with `aria-describedby`, so it is read again whenever the control gets focus.
 */
export function FieldError({ id, message }: { id: string; message: string | undefined }) {
  if (!message) return null;
  return (
    <p id={id} className={styles.error} role="alert">
      <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true" className={styles.errorIcon}>
        <circle cx="10" cy="10" r="9" fill="currentColor" />
        <path d="M10 5v6M10 14v.5" stroke="#fff" strokeWidth="2" strokeLinecap="round" />
      </svg>
      {message}
    </p>
  );
}
