import { useMutation, useQuery } from '@tanstack/react-query';
import {
  LeadJourneySchema,
  LeadSearchResultSchema,
  type LeadSearchQuery,
} from '@funnel/contracts/lead-journey';
import { apiRequest } from '@/lib/api-client';
import { ApiRequestError } from '@/lib/api-request-error';
import { useSignOutOn401 } from './operator-session';

/**
 * POST /api/v1/admin/leads/search. A mutation, not a query: the filters (an email or phone among them) stay in
 * this page's memory, never in its address or the browser's storage.
 */
export function useLeadSearch() {
  const mutation = useMutation({
    mutationFn: (filters: Partial<LeadSearchQuery>) =>
      apiRequest('/admin/leads/search', LeadSearchResultSchema, { method: 'POST', body: filters }),
  });
  useSignOutOn401(mutation.error);
  return mutation;
}

/** GET /api/v1/admin/leads/{leadId}: the lead's journey. */
export function useLeadJourney(leadId: string) {
  const query = useQuery({
    queryKey: ['operator', 'lead', leadId],
    queryFn: ({ signal }) =>
      apiRequest(`/admin/leads/${encodeURIComponent(leadId)}`, LeadJourneySchema, { signal }),
    retry: (failures, error) => !(error instanceof ApiRequestError && error.status < 500) && failures < 2,
  });
  useSignOutOn401(query.error);
  return query;
}
