import { useMutation } from '@tanstack/react-query';
import {
  PrivacyRequestResultSchema,
  type PrivacyRequestResult,
  type UnsubscribeRequest,
} from '@funnel/contracts/privacy';
import { apiRequest } from '@/lib/api-client';

/** POST /api/v1/privacy/unsubscribe — no more marketing email, texts or calls to this email and phone. */
export function submitUnsubscribe(request: UnsubscribeRequest): Promise<PrivacyRequestResult> {
  return apiRequest('/privacy/unsubscribe', PrivacyRequestResultSchema, { method: 'POST', body: request });
}

export function useSubmitUnsubscribe() {
  return useMutation({ mutationFn: submitUnsubscribe });
}
