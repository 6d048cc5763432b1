import { QueryClient } from '@tanstack/react-query';
import { ApiRequestError } from './api-request-error';

const MAX_RETRIES = 2;

/**
 * Server state lives in TanStack Query. A 4xx answer (an expired session, an unknown ZIP) is final, so it is
 * never retried; network hiccups and 5xx are, twice. Focus refetches are off: a screen's form is seeded once from
 * the lead, and a background refetch must not make answers jump while someone types.
 */
export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: (failureCount, error) =>
          !(error instanceof ApiRequestError && error.isClientError) && failureCount < MAX_RETRIES,
        refetchOnWindowFocus: false,
        staleTime: 60_000,
      },
      mutations: { retry: false },
    },
  });
}
