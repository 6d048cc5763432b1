import { useMutation, useQueryClient } from '@tanstack/react-query';
import {
  LeadSummarySchema,
  type CreateLeadRequest,
  type DeepLinkLeadRequest,
  type LeadSummary,
} from '@funnel/contracts/api';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/v1/lead — creates the visitor's lead from the landing form or a deep link; the BFF binds it to an
 * HttpOnly cookie and answers with the lead and the step to continue on.
 */
export function createLead(request: CreateLeadRequest | DeepLinkLeadRequest): Promise<LeadSummary> {
  return apiRequest('/lead', LeadSummarySchema, { method: 'POST', body: request });
}

/** Creates a lead. A new lead replaces the session, so nothing cached about an earlier one may survive it. */
export function useCreateLead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createLead,
    onSuccess: () => queryClient.removeQueries(),
  });
}
