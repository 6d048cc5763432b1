import { Spinner } from '@/components/ui/spinner';
import styles from './verification-loader.module.css';

interface RedirectNoticeProps {
  /** A checked web address (see `safeRedirectUrl`). */
  address: string;
  /** Where the address leads, as the sentence names it: "the lender's page". */
  destination: string;
  continueLabel: string;
}

/**
 * The reject screen's onward note (docs/product-rules.md §outcome-screens): it says where the browser goes in 2 s, with no 'verifying'
 * counter that would suggest the request is still being checked.
 */
export function RedirectNotice({ address, destination, continueLabel }: RedirectNoticeProps) {
  return (
    <div className={styles.loader}>
      <Spinner />
      <p className={styles.message} role="status">
        We are taking you to {destination} in 2 seconds.
      </p>
      <p className={styles.continue}>
        <a href={address}>{continueLabel}</a>
      </p>
    </div>
  );
}
