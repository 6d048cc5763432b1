import { useQuery } from '@tanstack/react-query';
import { PartnersSchema, type Partners } from '@funnel/contracts/privacy';
import { apiRequest } from '@/lib/api-client';

/**
 * GET /api/v1/partners — the configured partner names, then those of the partner source. The BFF already falls
 * back to the configured names when the source fails, so an error here means the BFF itself was unreachable.
 */
export function getPartners(signal?: AbortSignal): Promise<Partners> {
  return apiRequest('/partners', PartnersSchema, { signal });
}

export function usePartners() {
  return useQuery({ queryKey: ['partners'], queryFn: ({ signal }) => getPartners(signal) });
}
