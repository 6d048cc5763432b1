import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import type { LeadOutcome } from '@funnel/contracts/lead-outcome';
import { wasRedirected, type OutcomeRouteState } from '@/lib/outcome-route-state';

/** Every outcome screen with an address sends the browser there after 2 s (docs/product-rules.md §redirects). */
export const REDIRECT_DELAY_MS = 2_000;

/**
 * Sends the browser to `address` after 2 s, once per visit of the outcome screen (docs/product-rules.md §redirects: Back from the
 * lender's page must not send the borrower again). Just before leaving, this screen's history entry is marked;
 * arriving on a marked entry (Back, a reload), or the page coming back from the back/forward cache, answers
 * `sent` and sends nothing, so the screen offers its link instead.
 */
export function useOnwardRedirect(
  address: string | undefined,
  outcome: LeadOutcome | undefined,
): { sent: boolean } {
  const { pathname, state } = useLocation();
  const navigate = useNavigate();
  const [sentBefore] = useState(() => wasRedirected(state));
  const [restored, setRestored] = useState(false);
  // The marked entry carries the outcome on; read when the timer fires, so a new state object restarts nothing.
  const latest = useRef(outcome);
  useEffect(() => {
    latest.current = outcome;
  });

  useEffect(() => {
    const onPageShow = (event: PageTransitionEvent) => {
      if (event.persisted) setRestored(true);
    };
    window.addEventListener('pageshow', onPageShow);
    return () => window.removeEventListener('pageshow', onPageShow);
  }, []);

  const send = address !== undefined && outcome !== undefined && !sentBefore && !restored;
  useEffect(() => {
    if (!send || address === undefined) return;
    const timer = setTimeout(() => {
      const marked: OutcomeRouteState | undefined = latest.current && {
        outcome: latest.current,
        redirected: true,
      };
      void Promise.resolve(navigate(pathname, { replace: true, state: marked })).then(() =>
        window.location.assign(address),
      );
    }, REDIRECT_DELAY_MS);
    return () => clearTimeout(timer);
    // `pathname` and `navigate` are stable for this screen; the timer must not restart when the state is marked.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [send, address]);

  return { sent: sentBefore || restored };
}
