import { DeepLinkLeadRequestSchema, type DeepLinkLeadRequest } from '@funnel/contracts/api';
import { LoanReasonSchema, type LoanReason } from '@funnel/contracts/options';
import { EmailSchema } from '@funnel/contracts/landing';
import {
  DEEP_LINK_EMAIL as EMAIL,
  DEEP_LINK_LOAN_REASON as LOAN_REASON,
  carriesDeepLink,
} from './deep-link-params';

export interface DeepLink {
  /** The lead to pre-fill, when the link carries a valid email and loan reason. */
  request: DeepLinkLeadRequest | undefined;
  /** A valid loan reason from the link, to preselect on the landing form when no lead can be pre-filled. */
  loanReason: LoanReason | undefined;
  /** The query without the deep link's parameters, to put back in the address bar. */
  remainingSearch: string;
}

/**
 * Reads a deep link `?email=&loan_reason=` (spec §2); `undefined` when the query has neither parameter. The caller
 * removes both from the address bar at once: an email address must not linger in history or be copied with the
 * URL (docs/product-rules.md §returning-visitors-and-sessions). The email is checked with the email step's own schema, because a pre-filled email is never
 * asked again.
 */
export function readDeepLink(search: string): DeepLink | undefined {
  const params = new URLSearchParams(search);
  if (!carriesDeepLink(search)) return undefined;
  const loanReason = LoanReasonSchema.safeParse(params.get(LOAN_REASON)?.trim().toUpperCase());
  const email = EmailSchema.safeParse(params.get(EMAIL) ?? '');
  const request =
    loanReason.success && email.success
      ? DeepLinkLeadRequestSchema.safeParse({ email: email.data, loanReason: loanReason.data })
      : undefined;
  params.delete(EMAIL);
  params.delete(LOAN_REASON);
  const remaining = params.toString();
  return {
    request: request?.success ? request.data : undefined,
    loanReason: loanReason.success ? loanReason.data : undefined,
    remainingSearch: remaining ? `?${remaining}` : '',
  };
}
