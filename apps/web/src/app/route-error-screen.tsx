import { SiteFrame } from '@/components/layout/site-frame';
import { StatusScreen } from './status-screen';

/**
 * An error no screen handled, typically a screen's code that failed to download after a new release. Reloading
 * fetches the current release.
 */
export function RouteErrorScreen() {
  return (
    <SiteFrame>
      <StatusScreen title="Something went wrong">
        <p>This page could not be shown. Please reload the page; your saved answers are kept.</p>
      </StatusScreen>
    </SiteFrame>
  );
}
