import { useSyncExternalStore } from 'react';

/** The browser's Global Privacy Control setting; a page prerendered without a browser reads it as off. */
const globalPrivacyControl = () =>
  (navigator as Navigator & { globalPrivacyControl?: boolean }).globalPrivacyControl === true;
const unchanging = () => () => undefined;

/**
 * California's rules since 1 January 2026 (CCPA regulations § 7025(c)(6)): a site that honours an opt-out
 * preference signal shows the visitor that it did. Our BFF takes the browser's `Sec-GPC: 1` as a do-not-sell
 * request for the visitor's lead (docs/product-rules.md §privacy-requests); this says so where the opt-out links
 * are. Nothing shows without the signal, and nothing is stored.
 */
export function PrivacySignalNotice({ className }: { className?: string }) {
  const signalled = useSyncExternalStore(unchanging, globalPrivacyControl, () => false);
  if (!signalled) return null;
  return (
    <p className={className}>
      <strong>Opt-out request honored.</strong> Your browser sent the Global Privacy Control signal, so we do
      not sell or share your information.
    </p>
  );
}
