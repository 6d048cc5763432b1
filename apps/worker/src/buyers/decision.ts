import { LEAD_STATUS } from '@funnel/contracts/lender-network';
import type { NewOutcome } from '@funnel/lead-store/lead-store';

export interface DecisionPolicy {
  /** Redirect hosts that are partner offers rather than lenders. */
  partnerOfferHosts: readonly string[];
}

/**
 * Turns the network's status and addresses into our outcome (docs/product-rules.md §lender-network-answers): 3 pending; 1 sold (a partner offer
 * when the redirect host is one; without an address when the network gave none); 2 rejected; any other status follows a returned address if there is one, else
 * counts as rejected. Undefined means "still pending".
 */
export function decide(
  answer: { status: number; redirect_url?: string | undefined; rejectUrl?: string | undefined },
  policy: DecisionPolicy,
): NewOutcome | undefined {
  const { status, redirect_url: redirectUrl, rejectUrl } = answer;
  if (status === LEAD_STATUS.PENDING) return undefined;
  if (status === LEAD_STATUS.SOLD && redirectUrl) return sold(redirectUrl, policy);
  // docs/product-rules.md §lender-network-answers: a sale without an address is still a sale; the sold screen says the lender will contact them.
  if (status === LEAD_STATUS.SOLD) return { outcome: 'sold' };
  if (status === LEAD_STATUS.REJECTED) return rejected(rejectUrl, 'upstream_rejected');
  if (redirectUrl) return sold(redirectUrl, policy);
  return rejected(rejectUrl, `upstream_status_${status}`);
}

function sold(redirectUrl: string, policy: DecisionPolicy): NewOutcome {
  const host = new URL(redirectUrl).hostname.toLowerCase();
  const partnerOffer = policy.partnerOfferHosts.some((h) => host === h || host.endsWith(`.${h}`));
  return { outcome: 'sold', redirectUrl, ...(partnerOffer ? { partnerOffer } : {}) };
}

/** No lender took the lead, for `reason`; the borrower is offered the fallback offer when one is configured. */
export function noLender(reason: string, fallbackUrl: string | undefined): NewOutcome {
  return { outcome: 'no_lender', reason, ...(fallbackUrl ? { redirectUrl: fallbackUrl } : {}) };
}

export function rejected(rejectUrl: string | undefined, reason: string): NewOutcome {
  return { outcome: 'rejected', reason, ...(rejectUrl ? { redirectUrl: rejectUrl } : {}) };
}
