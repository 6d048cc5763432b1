import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, useEffect, type ReactNode } from 'react';
import { markHydrated } from '@/lib/hydration';
import { replayEarlyInput } from './early-input';

/**
 * The providers every screen relies on, around the router: the browser's `RouterProvider`, or the prerender's
 * `StaticRouterProvider` (src/entry-prerender.tsx). Both trees are the same, so React hydrates the prerendered
 * HTML without a mismatch.
 */
export function App({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  // The effect of the app's first commit, the tree's last (effects run children first), so every form is wired:
  // what was typed before hydration goes to the forms, then the page is marked as the app's
  // (docs/adr/0019-html-first-borrower-screens.md).
  useEffect(() => {
    replayEarlyInput(document.getElementById('root'));
    markHydrated();
  }, []);
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </StrictMode>
  );
}
