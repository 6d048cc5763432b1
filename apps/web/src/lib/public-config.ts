import { useQuery } from '@tanstack/react-query';
import { PublicConfigSchema, type PublicConfig } from '@funnel/contracts/public-config';
import { apiRequest } from './api-client';

export const PUBLIC_CONFIG_QUERY_KEY = ['public-config'] as const;

/** GET /api/v1/config — which consent scripts this deployment loads, versions and data credits; nothing secret. */
export function getPublicConfig(signal?: AbortSignal): Promise<PublicConfig> {
  return apiRequest('/config', PublicConfigSchema, { signal });
}

/** The deployment's public configuration. It only changes with a deployment, so it is read once per visit. */
export function usePublicConfig() {
  return useQuery({
    queryKey: PUBLIC_CONFIG_QUERY_KEY,
    queryFn: ({ signal }) => getPublicConfig(signal),
    staleTime: Infinity,
  });
}
