import { useMutation } from '@tanstack/react-query';
import {
  CrossSellRecordSchema,
  type CrossSellRecord,
  type CrossSellRequest,
} from '@funnel/contracts/cross-sell';
import { apiRequest } from '@/lib/api-client';
import { describeError, postClientLog } from '@/lib/post-client-log';

/**
 * POST /api/v1/lead/cross-sell — records the cross-sell answers given so far on the visitor's submitted lead; the
 * BFF answers with the stored record and its markers (spec §4: 14, 13, 12).
 */
export function recordCrossSell(request: CrossSellRequest): Promise<CrossSellRecord> {
  return apiRequest('/lead/cross-sell', CrossSellRecordSchema, { method: 'POST', body: request });
}

/**
 * Records answers in the background. The questions are optional extras while the visitor waits, so a failure is
 * reported to the operators and never shown or retried.
 */
export function useRecordCrossSell() {
  return useMutation({
    mutationFn: recordCrossSell,
    onError: (error) =>
      postClientLog({
        pretext: 'Recording cross-sell answers failed',
        text: describeError(error),
        type: 'warning',
      }),
  });
}
