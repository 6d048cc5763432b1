import { useQuery } from '@tanstack/react-query';
import type { ZipPlace } from '@funnel/contracts/api';
import { apiRequest, lazySchema } from './api-client';
import { ApiRequestError } from './api-request-error';

const zipPlace = lazySchema(() =>
  import('@funnel/contracts/api').then(({ ZipPlaceSchema }) => ZipPlaceSchema),
);

const FIVE_DIGITS = /^\d{5}$/;

/** GET /api/v1/lookup/zip/:zip — the city and state of a ZIP code; 404 when no such ZIP exists. */
export function getZipPlace(zip: string, signal?: AbortSignal): Promise<ZipPlace> {
  return apiRequest(`/lookup/zip/${zip}`, zipPlace, { signal });
}

/**
 * Looks a ZIP code up once it has five digits; ZIP codes do not move, so an answer is kept for the session.
 * `place` is the answer (none yet, or none to be had); `notFound` when the lookup knows no such ZIP code.
 */
export function useZipPlace(zip: string): { place: ZipPlace | undefined; notFound: boolean } {
  const query = useQuery({
    queryKey: ['zip-place', zip],
    queryFn: ({ signal }) => getZipPlace(zip, signal),
    enabled: FIVE_DIGITS.test(zip),
    staleTime: Infinity,
  });
  return {
    place: query.data,
    notFound: query.error instanceof ApiRequestError && query.error.status === 404,
  };
}
