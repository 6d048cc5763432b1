import { useMutation } from '@tanstack/react-query';
import {
  PrivacyRequestResultSchema,
  type DoNotSellRequest,
  type PrivacyRequestResult,
} from '@funnel/contracts/privacy';
import { apiRequest } from '@/lib/api-client';

/**
 * POST /api/v1/privacy/do-not-sell — do not sell or share this person's information; the BFF also flags the
 * visitor's own lead, found through the session cookie.
 */
export function submitDoNotSell(request: DoNotSellRequest): Promise<PrivacyRequestResult> {
  return apiRequest('/privacy/do-not-sell', PrivacyRequestResultSchema, { method: 'POST', body: request });
}

export function useSubmitDoNotSell() {
  return useMutation({ mutationFn: submitDoNotSell });
}
