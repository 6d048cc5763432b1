import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { LeadOutcome } from '@funnel/contracts/lead-outcome';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { PageLoader } from '@/components/ui/page-loader';
import { useOnwardRedirect } from '../hooks/use-onward-redirect';
import { useScreenOutcome } from '../hooks/use-screen-outcome';
import { safeRedirectUrl } from '../utils/safe-redirect-url';
import { RedirectNotice } from './redirect-notice';
import { VerificationLoader } from './verification-loader';
import styles from './outcome-screen.module.css';

/** What a screen shows for the outcome it was given: most screens show the same for every outcome they take. */
export type OutcomeContent<T> = T | ((outcome: LeadOutcome) => T);

interface OutcomeScreenProps {
  title: OutcomeContent<string>;
  /** What the screen says under its title. */
  children: OutcomeContent<ReactNode>;
  /** What the screen adds when its outcome has an address to go to. */
  withAddress?: ReactNode;
  /** What the screen says when its outcome carries no address to go to. */
  withoutAddress?: OutcomeContent<ReactNode>;
  /** The "do not wait" link's text. */
  continueLabel: string;
  /**
   * How the screen announces the redirect: the sold screens' verification loader (spec §4), or, given where the
   * address leads ("the lender's page"), a plain sentence (the reject screen, docs/product-rules.md §outcome-screens).
   */
  redirectDestination?: string;
}

/**
 * The frame of the four outcome screens (docs/product-rules.md §outcome-screens): the title, the screen's text,
 * and, when the outcome has an address, the note that the browser goes there after 2 s. Once it has gone, coming
 * back to this screen (Back from the lender's page) shows the link instead of sending the visitor again.
 */
export function OutcomeScreen({
  title,
  children,
  withAddress,
  withoutAddress,
  continueLabel,
  redirectDestination,
}: OutcomeScreenProps) {
  const { outcome, failed, retry } = useScreenOutcome();
  const address = safeRedirectUrl(outcome?.redirectUrl);
  const { sent } = useOnwardRedirect(address, outcome);

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
  const shown = <T,>(content: OutcomeContent<T>): T =>
    typeof content === 'function' ? (content as (outcome: LeadOutcome) => T)(outcome) : content;

  return (
    <div className={`container ${styles.wrapper}`}>
      <div className={styles.card}>
        <PageHeading className={styles.title}>{shown(title)}</PageHeading>
        <div className={styles.text}>
          {shown(children)}
          {address && withAddress}
        </div>
        {address && sent ? (
          <p className={styles.home}>
            <a href={address}>{continueLabel}</a>
          </p>
        ) : address && redirectDestination ? (
          <RedirectNotice address={address} destination={redirectDestination} continueLabel={continueLabel} />
        ) : address ? (
          <VerificationLoader address={address} continueLabel={continueLabel} />
        ) : (
          <>
            {withoutAddress && <div className={styles.text}>{shown(withoutAddress)}</div>}
            <p className={styles.home}>
              <Link to="/start">Go to the home page</Link>
            </p>
          </>
        )}
      </div>
    </div>
  );
}
