import { queryOptions, useQuery } from '@tanstack/react-query';
import type { PublicConfig } from '@funnel/contracts/public-config';
import { apiRequest, lazySchema } from './api-client';
import { setBusinessTimeZone } from './business-today';

export const PUBLIC_CONFIG_QUERY_KEY = ['public-config'] as const;

/**
 * GET /api/v1/config — which consent scripts this deployment loads, versions, the business time zone and data
 * credits; nothing secret. The time zone is applied to `businessToday` as soon as it arrives.
 */
const publicConfig = lazySchema(() =>
  import('@funnel/contracts/public-config').then(({ PublicConfigSchema }) => PublicConfigSchema),
);

export async function getPublicConfig(signal?: AbortSignal): Promise<PublicConfig> {
  const config = await apiRequest('/config', publicConfig, { signal });
  setBusinessTimeZone(config.businessTimeZone);
  return config;
}

/** The deployment's public configuration. It only changes with a deployment, so it is read once per visit. */
export const publicConfigQuery = queryOptions({
  queryKey: PUBLIC_CONFIG_QUERY_KEY,
  queryFn: ({ signal }) => getPublicConfig(signal),
  staleTime: Infinity,
});

export function usePublicConfig() {
  return useQuery(publicConfigQuery);
}
