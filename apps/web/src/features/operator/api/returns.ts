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

/** Every status list and the lead's journey change with a decision or a reversal. */
function useRefreshAfterDecision() {
  const queryClient = useQueryClient();
  return () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: returnsKey }),
      queryClient.invalidateQueries({ queryKey: ['operator', 'lead'] }),
    ]);
}

/** POST /api/v1/admin/returns/{returnId} (manager): approve or reject a pending return. */
export function useDecideReturn() {
  const onSettled = useRefreshAfterDecision();
  return useMutation({
    mutationFn: ({ returnId, decision }: { returnId: string; decision: 'approve' | 'reject' }) =>
      apiRequest(`/admin/returns/${encodeURIComponent(returnId)}`, BuyerReturnSchema, {
        method: 'POST',
        body: { decision },
      }),
    onSettled,
  });
}

/** POST /api/v1/admin/returns/{returnId}/reverse (manager): undo a decided return, for a reason. */
export function useReverseReturn() {
  const onSettled = useRefreshAfterDecision();
  return useMutation({
    mutationFn: ({ returnId, reason }: { returnId: string; reason: string }) =>
      apiRequest(`/admin/returns/${encodeURIComponent(returnId)}/reverse`, BuyerReturnSchema, {
        method: 'POST',
        body: { reason },
      }),
    onSettled,
  });
}
