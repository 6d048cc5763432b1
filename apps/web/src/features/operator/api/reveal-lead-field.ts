import { useMutation } from '@tanstack/react-query';
import { LeadRevealSchema, type LeadRevealRequest } from '@funnel/contracts/lead-reveal';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/v1/admin/leads/{leadId}/reveal (admin): one answer in clear, for a reason. A mutation, never a
 * query: the value stays in this page's memory (no query cache entry outlives the page, nothing in storage).
 */
export function useRevealLeadField(leadId: string) {
  return useMutation({
    mutationFn: (request: LeadRevealRequest) =>
      apiRequest(`/admin/leads/${encodeURIComponent(leadId)}/reveal`, LeadRevealSchema, {
        method: 'POST',
        body: request,
      }),
  });
}
