import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BuyerConfigVersionListSchema,
  BuyerHealthListSchema,
  BuyersConfigViewSchema,
  BuyerTestResultSchema,
} from '@funnel/contracts/buyer-admin';
import { apiRequest } from '@/lib/api-client';
import { useSignOutOn401 } from './operator-session';

const buyersKey = ['operator', 'buyers'] as const;
/** How often the health panel is read again: a pause shows its effect within seconds. */
const HEALTH_REFRESH_MS = 5000;

/** GET /api/v1/admin/buyers — the buyers as the workers run them, without credentials (manager). */
export function useBuyers() {
  const query = useQuery({
    queryKey: [...buyersKey, 'config'],
    queryFn: ({ signal }) => apiRequest('/admin/buyers', BuyersConfigViewSchema, { signal }),
  });
  useSignOutOn401(query.error);
  return query;
}

/** GET /api/v1/admin/buyers/health — each buyer over the last 15 minutes, read again every 5 s. */
export function useBuyerHealth() {
  return useQuery({
    queryKey: [...buyersKey, 'health'],
    queryFn: ({ signal }) => apiRequest('/admin/buyers/health', BuyerHealthListSchema, { signal }),
    refetchInterval: HEALTH_REFRESH_MS,
  });
}

/** GET /api/v1/admin/buyers/versions — who changed what, and when. */
export function useBuyerVersions() {
  return useQuery({
    queryKey: [...buyersKey, 'versions'],
    queryFn: ({ signal }) => apiRequest('/admin/buyers/versions', BuyerConfigVersionListSchema, { signal }),
  });
}

/** A change to the buyers: every buyers view is read again after it. */
function useBuyersChange<T, R>(request: (input: T) => Promise<R>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: request,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: buyersKey }),
  });
}

/** POST /api/v1/admin/buyers/import without a body — BUYERS_FILE read again from the server's disk. */
export function useImportBuyersFile() {
  return useBuyersChange(() =>
    apiRequest('/admin/buyers/import', BuyersConfigViewSchema, { method: 'POST' }),
  );
}

/** POST /api/v1/admin/buyers/:id/pause or /resume. */
export function usePauseBuyer() {
  return useBuyersChange(({ buyerId, pause }: { buyerId: string; pause: boolean }) =>
    apiRequest(`/admin/buyers/${buyerId}/${pause ? 'pause' : 'resume'}`, BuyersConfigViewSchema, {
      method: 'POST',
    }),
  );
}

/** PUT /api/v1/admin/buyers/:id (an edit) or POST /api/v1/admin/buyers (a new buyer). */
export function useSaveBuyer() {
  return useBuyersChange(
    ({ buyerId, buyer }: { buyerId: string | undefined; buyer: Record<string, unknown> }) =>
      apiRequest(buyerId ? `/admin/buyers/${buyerId}` : '/admin/buyers', BuyersConfigViewSchema, {
        method: buyerId ? 'PUT' : 'POST',
        body: buyer,
      }),
  );
}

/** POST /api/v1/admin/buyers/:id/test — the sample lead sent to the buyer by a worker, and its answer. */
export function useTestBuyer() {
  return useMutation({
    mutationFn: (buyerId: string) =>
      apiRequest(`/admin/buyers/${buyerId}/test`, BuyerTestResultSchema, { method: 'POST' }),
  });
}
