import type { JobsOptions, Queue } from 'bullmq';
import { JOBS, PARTNER_WEBHOOK_JOB_OPTIONS } from '@funnel/contracts/jobs';
import type { LeadStore } from '@funnel/lead-store/lead-store';

export interface PartnerWebhookNotifierDeps {
  store: Pick<LeadStore, 'getPartner'>;
  queue: Queue;
  /** Overrides of PARTNER_WEBHOOK_JOB_OPTIONS (tests shorten the backoff). */
  jobOptions?: JobsOptions;
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
    await deps.queue.add(
      JOBS.partnerWebhook.name,
      { leadId },
      { ...PARTNER_WEBHOOK_JOB_OPTIONS, ...deps.jobOptions, jobId: leadId },
    );
  };
}
