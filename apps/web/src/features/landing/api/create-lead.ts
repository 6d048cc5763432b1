import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { CreateLeadRequest, DeepLinkLeadRequest, LeadSummary } from '@funnel/contracts/api';
import { apiRequest, lazySchema } from '@/lib/api-client';
import { PUBLIC_CONFIG_QUERY_KEY } from '@/lib/public-config';

/**
 * POST /api/v1/lead — creates the visitor's lead from the landing form or a deep link; the BFF binds it to an
 * HttpOnly cookie and answers with the lead and the step to continue on.
 */
const leadSummary = lazySchema(() =>
  import('@funnel/contracts/api').then(({ LeadSummarySchema }) => LeadSummarySchema),
);

export function createLead(request: CreateLeadRequest | DeepLinkLeadRequest): Promise<LeadSummary> {
  return apiRequest('/lead', leadSummary, { method: 'POST', body: request });
}

/**
 * Creates a lead. A new lead replaces the session, so nothing cached about an earlier one may survive it; the
 * deployment's public configuration is about no one and stays.
 */
export function useCreateLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLead,
    onSuccess: () =>
      queryClient.removeQueries({
        predicate: (query) => query.queryKey[0] !== PUBLIC_CONFIG_QUERY_KEY[0],
      }),
  });
}
