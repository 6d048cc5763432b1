import { useLayoutEffect, useRef } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SiteFrame } from '@/components/layout/site-frame';
import { PageLoader } from '@/components/ui/page-loader';
import { isSessionExpiredState } from '@/hooks/use-expire-session';
import { useHydrated } from '@/lib/hydration';
import { usePublicConfig } from '@/lib/public-config';
import { SessionExpiredScreen } from './session-expired-screen';

/**
 * Every page: the site frame around the matched screen. Each route change starts at the top (spec §2). A screen
 * that found the session gone (`useExpireSession`) is replaced by the session-expired message. The deployment's
 * configuration is asked for at once: funnel screens draw without it, but their dates are days of its business
 * time zone, so date controls and Next wait for it (useStepForm, useBusinessToday).
 */
export function RootLayout() {
  const { pathname, state } = useLocation();
  // History state is the browser's alone: the render that hydrates the prerendered page reads none.
  const expired = useHydrated() && isSessionExpiredState(state);
  usePublicConfig();
  // Not on the first render: the page was painted before, and a visitor may have scrolled it already.
  const painted = useRef(false);
  useLayoutEffect(() => {
    if (painted.current) window.scrollTo(0, 0);
    painted.current = true;
  }, [pathname, expired]);
  return <SiteFrame>{expired ? <SessionExpiredScreen /> : <Outlet />}</SiteFrame>;
}

/** What shows while the first screen's code is still loading. */
export function RootFallback() {
  return (
    <SiteFrame>
      <PageLoader />
    </SiteFrame>
  );
}
