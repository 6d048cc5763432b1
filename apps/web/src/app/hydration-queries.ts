import type { QueryClient } from '@tanstack/react-query';
import { getLead, leadQuery } from '@/lib/get-lead';
import { whenHydrated } from '@/lib/hydration';
import { getPublicConfig, publicConfigQuery } from '@/lib/public-config';
import { readsLeadFirst } from './router';

/**
 * `request`'s answer, given only once the app has the page: an answer that arrived while React was still
 * hydrating would make the screens it reaches draw something other than the prerendered HTML.
 */
async function afterHydration<T>(request: Promise<T>): Promise<T> {
  const [answer] = await Promise.allSettled([request, whenHydrated()]);
  if (answer.status === 'rejected') throw answer.reason;
  return answer.value;
}

/**
 * Starts the requests a prerendered page's first render makes (the public configuration on every page, the lead
 * on the funnel's screens and on a plain /start), in a task before React hydrates the page
 * (docs/adr/0019-html-first-borrower-screens.md). Left to the screens, they started while React committed the
 * hydrated page, and each query going from idle to fetching made React render its screen again at once, in the
 * same task: the longest of the page's tasks. Started here, the queries are already fetching when the screens
 * read them, and their answers come no later than before (they are held until the page is the app's).
 */
export function startHydrationQueries(queryClient: QueryClient, { pathname, search }: Location): void {
  void queryClient.prefetchQuery({
    ...publicConfigQuery,
    queryFn: ({ signal }) => afterHydration(getPublicConfig(signal)),
  });
  // /start with a deep link's query starts a new lead instead of reading one.
  if (readsLeadFirst(pathname) || (pathname === '/start' && search === '')) {
    void queryClient.prefetchQuery({
      ...leadQuery,
      queryFn: ({ signal }) => afterHydration(getLead(signal)),
    });
  }
}
