import { useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SiteFrame } from '@/components/layout/site-frame';
import { PageLoader } from '@/components/ui/page-loader';
import { isSessionExpiredState } from '@/hooks/use-expire-session';
import { SessionExpiredScreen } from './session-expired-screen';

/**
 * Every page: the site frame around the matched screen. Each route change starts at the top (spec §2). A screen
 * that found the session gone (`useExpireSession`) is replaced by the session-expired message.
 */
export function RootLayout() {
  const { pathname, state } = useLocation();
  const expired = isSessionExpiredState(state);
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
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
