import { useEffect, type CSSProperties } from 'react';
import { useCountToHundred } from '../hooks/use-count-to-hundred';
import styles from './verification-loader.module.css';

/** Every outcome screen with an address sends the browser there after 2 s (decisions.md). */
export const REDIRECT_DELAY_MS = 2_000;
/** The count reaches 100 % a little before the redirect, so 'Redirect...' is seen. */
const COUNT_MS = 1_600;

interface VerificationLoaderProps {
  /** A checked web address (see `safeRedirectUrl`). */
  address: string;
  /** The link for people who do not want to wait. */
  continueLabel: string;
}

/**
 * The verification loader (spec §4): a percentage counting to 100, then 'Redirect...', and the browser leaves for
 * `address` after 2 s. The link beside it leaves at once.
 */
export function VerificationLoader({ address, continueLabel }: VerificationLoaderProps) {
  const percent = useCountToHundred(COUNT_MS);
  const done = percent >= 100;

  useEffect(() => {
    const timer = setTimeout(() => window.location.assign(address), REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
  }, [address]);

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
