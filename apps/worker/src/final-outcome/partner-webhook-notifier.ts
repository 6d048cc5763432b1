import { JOBS } from '@funnel/contracts/jobs';
import { enqueue, type EnqueueOptions, type QueueSource } from '@funnel/server-runtime/job-queue';
import type { LeadStore } from '@funnel/lead-store/lead-store';

export interface PartnerWebhookNotifierDeps {
  store: Pick<LeadStore, 'getPartner'>;
  queues: QueueSource;
  /** Overrides of the catalog's job options (tests shorten the backoff). */
  jobOptions?: EnqueueOptions;
}

/**
 * What the submission worker calls once a lead's outcome is final: for a partner lead with a webhook, queues
 * its delivery (job data: the lead id only). The job id is the lead id, so settling the same outcome again
 * (a retried job) never queues a second delivery. Funnel leads cost one HGET.
 */
export function createPartnerWebhookNotifier(deps: PartnerWebhookNotifierDeps) {
  return async function notifyFinalOutcome(leadId: string): Promise<void> {
    const partner = await deps.store.getPartner(leadId);
    if (!partner?.webhookUrl) return;
    await enqueue(deps.queues, JOBS.partnerWebhook, { leadId }, deps.jobOptions);
  };
}
