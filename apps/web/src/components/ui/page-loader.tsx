import { Spinner } from './spinner';
import styles from './page-loader.module.css';

/** A screen-sized wait with a message that screen readers announce. */
export function PageLoader({
  message = 'Loading…',
  fullPage = false,
}: {
  message?: string;
  fullPage?: boolean;
}) {
  return (
    <div className={fullPage ? styles.overlay : styles.inline} role="status">
      <Spinner size="large" />
      <p className={styles.message}>{message}</p>
    </div>
  );
}
