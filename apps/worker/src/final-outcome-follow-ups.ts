import type { JobsOptions, Queue } from 'bullmq';
import { FOLLOW_UP_JOB_IDS, FOLLOW_UP_JOB_OPTIONS, JOBS } from '@funnel/contracts/jobs';
import type { LeadStore } from '@funnel/lead-store/lead-store';

export interface FinalOutcomeFollowUpsDeps {
  store: Pick<LeadStore, 'getOutcome'>;
  purgeQueue: Queue;
  retainQueue: Queue;
  /** `SENSITIVE_PURGE_GRACE_HOURS`: how long after the final outcome SSN and bank data stay. */
  purgeGraceMs: number;
  /** TrustedForm credentials are configured: a sold lead's certificate is retained. */
  retainCertificates: boolean;
  /** Overrides of the catalog's job options (tests shorten the backoff). */
  jobOptions?: JobsOptions;
}

/**
 * What follows a lead's final outcome in the worker: the sensitive-data purge, delayed by the grace period, and
 * for a sale the TrustedForm retain. Both job ids are the lead id, so settling the outcome again (a retried
 * submission job) adds nothing while they wait.
 */
export function createFinalOutcomeFollowUps(deps: FinalOutcomeFollowUpsDeps) {
  return async function scheduleFinalOutcomeFollowUps(leadId: string): Promise<void> {
    await deps.purgeQueue.add(
      JOBS.sensitiveDataPurge.name,
      { leadId },
      {
        ...FOLLOW_UP_JOB_OPTIONS.sensitiveDataPurge,
        ...deps.jobOptions,
        delay: deps.purgeGraceMs,
        jobId: FOLLOW_UP_JOB_IDS.sensitiveDataPurge(leadId),
      },
    );
    if (!deps.retainCertificates) return;
    if ((await deps.store.getOutcome(leadId))?.outcome !== 'sold') return;
    await deps.retainQueue.add(
      JOBS.trustedFormRetain.name,
      { leadId },
      {
        ...FOLLOW_UP_JOB_OPTIONS.trustedFormRetain,
        ...deps.jobOptions,
        jobId: FOLLOW_UP_JOB_IDS.trustedFormRetain(leadId),
      },
    );
  };
}
