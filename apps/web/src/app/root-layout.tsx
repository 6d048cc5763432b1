import { useLayoutEffect } from 'react';
import { Outlet, useLocation } from 'react-router';
import { SiteFrame } from '@/components/layout/site-frame';
import { PageLoader } from '@/components/ui/page-loader';

/** Every page: the site frame around the matched screen. Each route change starts at the top (spec §2). */
export function RootLayout() {
  const { pathname } = useLocation();
  useLayoutEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
  return (
    <SiteFrame>
      <Outlet />
    </SiteFrame>
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
