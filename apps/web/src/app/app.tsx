import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { StrictMode, type ReactNode } from 'react';

/**
 * The providers every screen relies on, around the router: the browser's `RouterProvider`, or the prerender's
 * `StaticRouterProvider` (src/entry-prerender.tsx). Both trees are the same, so React hydrates the prerendered
 * HTML without a mismatch.
 */
export function App({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
    </StrictMode>
  );
}
