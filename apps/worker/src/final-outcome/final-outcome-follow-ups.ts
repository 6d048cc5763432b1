import { JOBS } from '@funnel/contracts/jobs';
import { enqueue, type EnqueueOptions, type QueueSource } from '@funnel/server-runtime/job-queue';
import type { LeadStore } from '@funnel/lead-store/lead-store';

export interface FinalOutcomeFollowUpsDeps {
  store: Pick<LeadStore, 'getOutcome'>;
  queues: QueueSource;
  /** `SENSITIVE_PURGE_GRACE_HOURS`: how long after the final outcome SSN and bank data stay. */
  purgeGraceMs: number;
  /** TrustedForm credentials are configured: a sold lead's certificate is retained. */
  retainCertificates: boolean;
  /** Overrides of the catalog's job options (tests shorten the backoff). */
  jobOptions?: EnqueueOptions;
}

/**
 * What follows a lead's final outcome in the worker: the sensitive-data purge, delayed by the grace period, and
 * for a sale the TrustedForm retain. Both job ids are the lead id, so settling the outcome again (a retried
 * submission job) adds nothing while they wait.
 */
export function createFinalOutcomeFollowUps(deps: FinalOutcomeFollowUpsDeps) {
  return async function scheduleFinalOutcomeFollowUps(leadId: string): Promise<void> {
    await enqueue(
      deps.queues,
      JOBS.sensitiveDataPurge,
      { leadId },
      {
        ...deps.jobOptions,
        delay: deps.purgeGraceMs,
      },
    );
    if (!deps.retainCertificates) return;
    if ((await deps.store.getOutcome(leadId))?.outcome !== 'sold') return;
    await enqueue(deps.queues, JOBS.trustedFormRetain, { leadId }, deps.jobOptions);
  };
}
