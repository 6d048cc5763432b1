import type { Job } from 'bullmq';
import { crossSellForwardPayload } from '@funnel/contracts/cross-sell';
import { LeadJobSchema } from '@funnel/contracts/jobs';
import type { FollowUpResult } from './follow-up-result.js';
import { contactSuppression, deliverContact, type ContactDeliveryDeps } from './contact-delivery.js';

/** Where cross-sell records go, and the bearer token the partner gave us (if any). */
export interface CrossSellForwardConfig {
  url: string;
  token?: string | undefined;
}

export interface CrossSellForwardDeps extends ContactDeliveryDeps {
  /** Unset without `CROSS_SELL_FORWARD_URL`: every forward is skipped. */
  forward: CrossSellForwardConfig | undefined;
}

/**
 * Forwards a lead's cross-sell record to the cross-sell partner. Sharing a contact with a partner is exactly
 * what do-not-sell and unsubscribe forbid, so the lead's own do-not-sell flag and the suppression list (email or
 * phone, either request) are checked when the job runs, not when it was queued.
 */
export function createCrossSellForwardProcessor(deps: CrossSellForwardDeps) {
  return async function forwardCrossSell(job: Job): Promise<FollowUpResult> {
    const { leadId } = LeadJobSchema.parse(job.data);
    if (!deps.forward) return { skipped: 'cross-sell forwarding not configured' };
    const lead = await deps.store.get(leadId);
    if (!lead) return { skipped: 'lead no longer exists' };
    if (!lead.crossSell) return { skipped: 'no cross-sell answers' };
    if (lead.doNotSell) return { skipped: 'lead flagged do-not-sell' };
    const payload = crossSellForwardPayload(lead.fields, lead.crossSell);
    if (!payload) return { skipped: 'lead lacks the contact fields' };
    const suppressed = await contactSuppression(deps.suppression, payload.email, lead.fields);
    if (suppressed.doNotSell || suppressed.unsubscribed) return { skipped: 'contact suppressed' };

    await deliverContact(
      deps,
      { job, leadId },
      {
        service: 'cross-sell partner',
        url: deps.forward.url,
        body: payload,
        headers: {
          // The same job id on every attempt: a partner that saw a retried post can drop the repeat.
          'idempotency-key': String(job.id),
          ...(deps.forward.token ? { authorization: `Bearer ${deps.forward.token}` } : {}),
        },
      },
      { failed: 'cross-sell forward failed', done: 'cross-sell record forwarded' },
    );
    return { done: 'forwarded' };
  };
}
