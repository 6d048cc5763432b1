import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { crossSellForwardPayload } from '@funnel/contracts/cross-sell';
import { CLIENT_TO_SERVER } from '@funnel/contracts/fields';
import { LeadJobSchema } from '@funnel/contracts/jobs';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { SuppressionList } from '@funnel/lead-store/suppression-list';
import type { FollowUpResult } from './follow-up-result.js';
import { failJob, type OutboundHttp } from './outbound-http.js';

/** Where cross-sell records go, and the bearer token the partner gave us (if any). */
export interface CrossSellForwardConfig {
  url: string;
  token?: string | undefined;
}

export interface CrossSellForwardDeps {
  store: Pick<LeadStore, 'get'>;
  suppression: Pick<SuppressionList, 'isSuppressed'>;
  http: Pick<OutboundHttp, 'postJson'>;
  /** Unset without `CROSS_SELL_FORWARD_URL`: every forward is skipped. */
  forward: CrossSellForwardConfig | undefined;
  logger: Logger;
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
    const phone = lead.fields[CLIENT_TO_SERVER.phone];
    const suppressed = await deps.suppression.isSuppressed({
      email: payload.email,
      phone: typeof phone === 'string' ? phone : undefined,
    });
    if (suppressed.doNotSell || suppressed.unsubscribed) return { skipped: 'contact suppressed' };

    try {
      await deps.http.postJson('cross-sell partner', deps.forward.url, payload, {
        // The same job id on every attempt: a partner that saw a retried post can drop the repeat.
        'idempotency-key': String(job.id),
        ...(deps.forward.token ? { authorization: `Bearer ${deps.forward.token}` } : {}),
      });
    } catch (error) {
      deps.logger.warn({ leadId, jobId: job.id, err: (error as Error).message }, 'cross-sell forward failed');
      failJob(error);
    }
    deps.logger.info({ leadId, jobId: job.id }, 'cross-sell record forwarded');
    return { done: 'forwarded' };
  };
}
