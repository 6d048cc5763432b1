import { useQuery } from '@tanstack/react-query';
import { LeadSummarySchema, type LeadSummary } from '@funnel/contracts/api';
import { apiRequest } from '@/lib/api-client';

export const LEAD_QUERY_KEY = ['lead'] as const;

/** GET /api/v1/lead — the visitor's own lead (sensitive answers masked); 404 SESSION_EXPIRED without one. */
export function getLead(signal?: AbortSignal): Promise<LeadSummary> {
  return apiRequest('/lead', LeadSummarySchema, { signal });
}

/** The lead behind the session cookie. It changes only when a step is saved, which refetches it. */
export function useLead({ enabled = true }: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: LEAD_QUERY_KEY,
    queryFn: ({ signal }) => getLead(signal),
    staleTime: Infinity,
    enabled,
  });
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
