import { useLayoutEffect } from 'react';
import { Outlet, useLocation, useMatches } from 'react-router';
import { SiteFrame } from '@/components/layout/site-frame';
import { PageLoader } from '@/components/ui/page-loader';
import { isFunnelRouteHandle } from '@/features/funnel/utils/funnel-route-handle';
import { isSessionExpiredState } from '@/hooks/use-expire-session';
import { usePublicConfig } from '@/lib/public-config';
import { SessionExpiredScreen } from './session-expired-screen';

/**
 * Every page: the site frame around the matched screen. Each route change starts at the top (spec §2). A screen
 * that found the session gone (`useExpireSession`) is replaced by the session-expired message. Funnel screens
 * wait for the deployment's configuration: their dates are days of its business time zone.
 */
export function RootLayout() {
  const { pathname, state } = useLocation();
  const expired = isSessionExpiredState(state);
  const config = usePublicConfig();
  const datesPending = useMatches().some((match) => isFunnelRouteHandle(match.handle)) && config.isPending;
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname, expired]);
  return (
    <SiteFrame>{expired ? <SessionExpiredScreen /> : datesPending ? <PageLoader /> : <Outlet />}</SiteFrame>
  );
}

/** What shows while the first screen's code is still loading. */
export function RootFallback() {
  return (
    <SiteFrame>
      <PageLoader />
    </SiteFrame>
  );
}
