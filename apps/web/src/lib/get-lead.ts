import { queryOptions, useQuery } from '@tanstack/react-query';
import type { LeadSummary } from '@funnel/contracts/api';
import { apiRequest, lazySchema } from '@/lib/api-client';
import { ApiRequestError } from '@/lib/api-request-error';

export const LEAD_QUERY_KEY = ['lead'] as const;

/** What GET /api/v1/lead answers: the lead, or no body (204) for a visitor without a session yet. */
const leadOrNone = lazySchema(() =>
  import('@funnel/contracts/api').then(({ LeadSummarySchema }) => LeadSummarySchema.optional()),
);

/**
 * GET /api/v1/lead — the visitor's own lead (sensitive answers masked). Without one it fails with
 * SESSION_EXPIRED, as the screens expect: for an expired session the BFF answers 404, for a new visitor 204, so a
 * first visit makes no failed request (issue 25).
 */
export async function getLead(signal?: AbortSignal): Promise<LeadSummary> {
  const lead = await apiRequest('/lead', leadOrNone, { signal });
  // Read as the 404 it stands for: final, never retried.
  if (!lead) throw new ApiRequestError(404, 'SESSION_EXPIRED', 'No application yet.');
  return lead;
}

/** The lead behind the session cookie. It changes only when a step is saved, which refetches it. */
export const leadQuery = queryOptions({
  queryKey: LEAD_QUERY_KEY,
  queryFn: ({ signal }) => getLead(signal),
  staleTime: Infinity,
});

export function useLead({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({ ...leadQuery, enabled });
}

/**
 * The lead as the BFF holds it now, for the screens after submission: its outcome changes without any action of
 * this browser, so a cached copy is never trusted. Read `isFetchedAfterMount` before deciding anything on it.
 */
export function useFreshLead({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: LEAD_QUERY_KEY,
    queryFn: ({ signal }) => getLead(signal),
    refetchOnMount: 'always',
    enabled,
  });
}
