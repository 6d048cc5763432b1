import { useEffect, useMemo, useRef } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { outcomeRoute, type LeadOutcome } from '@funnel/contracts/lead-outcome';
import { isSessionExpired, useExpireSession } from '@/hooks/use-expire-session';
import { useFreshLead } from '@/lib/get-lead';
import { useHydrated } from '@/lib/hydration';
import { readOutcomeRouteState, type OutcomeRouteState } from '@/lib/outcome-route-state';

export interface ScreenOutcome {
  /** The outcome this screen shows; undefined while it is read, or while the visitor is sent elsewhere. */
  outcome: LeadOutcome | undefined;
  /** The lead could not be read (network, server); `retry` tries again. */
  failed: boolean;
  retry: () => void;
}

/**
 * The outcome an outcome screen shows: the one the waiting screen handed over in router state, or, after a reload
 * or a visit from elsewhere, the lead's as the BFF holds it. A screen that is not the outcome's own hands over to
 * the one that is; a lead still waiting goes back to the waiting screen, a lead never submitted to its next step,
 * and a visitor without a lead is told the session ended and starts over.
 */
export function useScreenOutcome(): ScreenOutcome {
  const { pathname, state } = useLocation();
  const navigate = useNavigate();
  const expireSession = useExpireSession();
  // History state is the browser's alone: the render that hydrates the prerendered screen reads none.
  const hydrated = useHydrated();
  const handed = useMemo(() => (hydrated ? readOutcomeRouteState(state) : undefined), [hydrated, state]);
  const lead = useFreshLead({ enabled: !handed });
  const alerted = useRef(false);

  const read = lead.isFetchedAfterMount ? lead.data : undefined;
  const outcome = handed ?? read?.outcome;
  const route = outcome ? outcomeRoute(outcome) : read ? `/${read.nextStep}` : undefined;
  const elsewhere = route !== undefined && route !== pathname;
  const expired = isSessionExpired(lead.error);

  useEffect(() => {
    if (!elsewhere || route === undefined) return;
    const handOver: OutcomeRouteState | undefined = outcome ? { outcome } : undefined;
    void navigate(route, { replace: true, state: handOver });
  }, [elsewhere, route, outcome, navigate]);

  useEffect(() => {
    if (!expired || alerted.current) return;
    alerted.current = true;
    expireSession();
  }, [expired, expireSession]);

  return {
    outcome: elsewhere ? undefined : outcome,
    failed: !outcome && lead.isError && !expired,
    retry: () => void lead.refetch(),
  };
}
