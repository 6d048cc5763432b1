import type { CSSProperties } from 'react';
import { useCountToHundred } from '../hooks/use-count-to-hundred';
import styles from './verification-loader.module.css';

/** The count reaches 100 % a little before the redirect (2 s), so 'Redirect...' is seen. */
const COUNT_MS = 1_600;

interface VerificationLoaderProps {
  /** A checked web address (see `safeRedirectUrl`). */
  address: string;
  /** The link for people who do not want to wait. */
  continueLabel: string;
}

/**
 * The sold screens' verification loader (spec §4): a percentage counting to 100, then 'Redirect...', while
 * `useOnwardRedirect` sends the browser on after 2 s. The link beside it leaves at once.
 */
export function VerificationLoader({ address, continueLabel }: VerificationLoaderProps) {
  const percent = useCountToHundred(COUNT_MS);
  const done = percent >= 100;

  return (
    <div className={styles.loader}>
      <div
        className={styles.ring}
        style={{ '--percent': percent } as CSSProperties}
        role="progressbar"
        aria-label="Verifying your request"
        aria-valuemin={0}
        aria-valuemax={100}
        aria-valuenow={percent}
      >
        <span className={styles.percent} aria-hidden="true">
          {percent}%
        </span>
      </div>
      <p className={styles.message} role="status">
        {done ? 'Redirect...' : 'Verifying your request…'}
      </p>
      <p className={styles.continue}>
        <a href={address}>{continueLabel}</a>
      </p>
    </div>
  );
}
