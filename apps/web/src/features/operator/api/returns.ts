import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { BuyerReturnSchema, ReturnQueueSchema, type ReturnStatus } from '@funnel/contracts/buyer-api';
import { apiRequest } from '@/lib/api-client';
import { useSignOutOn401 } from './operator-session';

const returnsKey = ['operator', 'returns'] as const;

/** GET /api/v1/admin/returns?status= (manager): the buyers' returns of one status, oldest filed first. */
export function useReturns(status: ReturnStatus) {
  const query = useQuery({
    queryKey: [...returnsKey, status],
    queryFn: ({ signal }) => apiRequest(`/admin/returns?status=${status}`, ReturnQueueSchema, { signal }),
  });
  useSignOutOn401(query.error);
  return query;
}

/** POST /api/v1/admin/returns/{returnId} (manager): approve or reject a pending return. */
export function useDecideReturn() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ returnId, decision }: { returnId: string; decision: 'approve' | 'reject' }) =>
      apiRequest(`/admin/returns/${encodeURIComponent(returnId)}`, BuyerReturnSchema, {
        method: 'POST',
        body: { decision },
      }),
    // Every status list and the lead's journey change with a decision.
    onSettled: () =>
      Promise.all([
        queryClient.invalidateQueries({ queryKey: returnsKey }),
        queryClient.invalidateQueries({ queryKey: ['operator', 'lead'] }),
      ]),
  });
}
