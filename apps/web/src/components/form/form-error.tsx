import styles from './field.module.css';

/**
 * What went wrong with the whole form rather than one field (the answer could not be saved, the request could
 * not be sent), above its button. `role="alert"` has it read out the moment it appears.
 */
export function FormError({ message }: { message: string | undefined }) {
  if (!message) return null;
  return (
    <p className={styles.formError} role="alert">
      {message}
    </p>
  );
}
