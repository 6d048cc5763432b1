import { useEffect, useRef } from 'react';
import { Outlet, useMatches } from 'react-router';
import { progressFor } from '@funnel/contracts/steps';
import { Button } from '@/components/ui/button';
import { PageLoader } from '@/components/ui/page-loader';
import { ProgressBar } from '@/components/ui/progress-bar';
import { isSessionExpired, useExpireSession } from '@/hooks/use-expire-session';
import { useLead } from '@/lib/get-lead';
import { isFunnelRouteHandle } from '../utils/funnel-route-handle';
import styles from './funnel-layout.module.css';

/**
 * Around every funnel screen: loads the visitor's lead (the screens start from its saved answers), sends a
 * visitor without one back to the start, and keeps one progress bar across steps so it can animate between them.
 */
export default function FunnelLayout() {
  const lead = useLead();
  const expireSession = useExpireSession();
  const expired = isSessionExpired(lead.error);
  const alerted = useRef(false);
  const handle = useMatches()
    .map((match) => match.handle)
    .findLast(isFunnelRouteHandle);

  useEffect(() => {
    if (!expired || alerted.current) return;
    alerted.current = true;
    expireSession();
  }, [expired, expireSession]);

  // The screen is drawn while the lead loads (the prerendered HTML shows it too): its fields fill in once the
  // lead is there (useStepForm). Only a visitor without a session waits here, on the way to the start.
  if (expired) return <PageLoader message="Loading your application…" />;

  return (
    <div className={styles.funnel}>
      <div className={`container ${styles.container}`}>
        {/* /requestcash is the submit screen like /ssn: it shares its value; 100 only once submitted. */}
        {handle && <ProgressBar value={progressFor('step' in handle ? handle.step : 'ssn')} />}
        <div className={styles.card}>
          {lead.isError ? (
            <div role="alert" className={styles.loadError}>
              <p>We could not load your application. Please check your connection and try again.</p>
              <Button onClick={() => void lead.refetch()}>Try again</Button>
            </div>
          ) : (
            <Outlet />
          )}
        </div>
        <p className={styles.secure}>
          <svg viewBox="0 0 20 20" width="16" height="16" aria-hidden="true">
            <path
              d="M5 9V6.5a5 5 0 0110 0V9M4 9h12v8H4z"
              fill="none"
              stroke="currentColor"
              strokeWidth="1.8"
              strokeLinejoin="round"
            />
          </svg>
          Your answers travel encrypted and sensitive details are stored encrypted.
        </p>
      </div>
    </div>
  );
}
