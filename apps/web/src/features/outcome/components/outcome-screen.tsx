import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { PageLoader } from '@/components/ui/page-loader';
import { useScreenOutcome } from '../hooks/use-screen-outcome';
import { safeRedirectUrl } from '../utils/safe-redirect-url';
import { VerificationLoader } from './verification-loader';
import styles from './outcome-screen.module.css';

interface OutcomeScreenProps {
  title: string;
  /** What the screen says under its title. */
  children: ReactNode;
  /** What the screen says when its outcome carries no address to go to. */
  withoutAddress?: ReactNode;
  /** The "do not wait" link's text. */
  continueLabel: string;
}

/**
 * The frame of the four outcome screens (decisions.md, "Outcomes and screens"): the title, the screen's text,
 * and, when the outcome has an address, the verification loader that sends the browser there after 2 s.
 */
export function OutcomeScreen({ title, children, withoutAddress, continueLabel }: OutcomeScreenProps) {
  const { outcome, failed, retry } = useScreenOutcome();

  if (failed) {
    return (
      <div className={`container ${styles.wrapper}`}>
        <div className={styles.card} role="alert">
          <p>We could not load your result. Please check your connection and try again.</p>
          <Button onClick={retry}>Try again</Button>
        </div>
      </div>
    );
  }
  if (!outcome) return <PageLoader message="Loading your result…" />;

  const address = safeRedirectUrl(outcome.redirectUrl);
  return (
    <div className={`container ${styles.wrapper}`}>
      <div className={styles.card}>
        <PageHeading className={styles.title}>{title}</PageHeading>
        <div className={styles.text}>{children}</div>
        {address ? (
          <VerificationLoader address={address} continueLabel={continueLabel} />
        ) : (
          <>
            {withoutAddress && <div className={styles.text}>{withoutAddress}</div>}
            <p className={styles.home}>
              <Link to="/start">Go to the home page</Link>
            </p>
          </>
        )}
      </div>
    </div>
  );
}
