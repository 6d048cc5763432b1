import { JOBS } from '@funnel/contracts/jobs';
import { DUPLICATE_REASON, isFinalOutcome, type LeadOutcome } from '@funnel/contracts/lead-outcome';
import { affiliateOf } from '@funnel/contracts/attribution';
import { PostbackEventSchema, type AffiliatePostbacks } from '@funnel/contracts/postbacks';
import { enqueue, type EnqueueOptions, type QueueSource } from '@funnel/server-runtime/job-queue';
import type { LeadStore } from '@funnel/lead-store/lead-store';

/** Whether `outcome` is one the lead's affiliate is paid on: final, and not a refused duplicate. */
export function postbackEventOf(outcome: LeadOutcome | undefined) {
  if (!outcome || !isFinalOutcome(outcome.outcome) || outcome.reason === DUPLICATE_REASON) return undefined;
  const event = PostbackEventSchema.safeParse(outcome.outcome);
  return event.success ? event.data : undefined;
}

export interface AffiliatePostbackNotifierDeps {
  store: Pick<LeadStore, 'getTracking' | 'getOutcome'>;
  queues: QueueSource;
  postbacks: AffiliatePostbacks;
  /** Overrides of the catalog's job options (tests shorten the backoff). */
  jobOptions?: EnqueueOptions;
}

/**
 * What follows a final outcome for an affiliate's lead: when the affiliate has a postback for that outcome, one
 * job (id: lead id and event), so settling the outcome again queues nothing more. Costs nothing without
 * configured postbacks, and two HGETs per lead with them.
 */
export function createAffiliatePostbackNotifier(deps: AffiliatePostbackNotifierDeps) {
  return async function notifyAffiliate(leadId: string): Promise<void> {
    if (Object.keys(deps.postbacks).length === 0) return;
    const [tracking, outcome] = await Promise.all([
      deps.store.getTracking(leadId),
      deps.store.getOutcome(leadId),
    ]);
    const affiliate = tracking && affiliateOf(tracking);
    const event = postbackEventOf(outcome);
    const postback = affiliate ? deps.postbacks[affiliate] : undefined;
    if (!event || !postback?.events.includes(event)) return;
    await enqueue(deps.queues, JOBS.affiliatePostback, { leadId, event }, deps.jobOptions);
  };
}
