import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { LeadJobSchema } from '@funnel/contracts/jobs';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { FollowUpResult } from './follow-up-result.js';

export interface SensitiveDataPurgeDeps {
  store: Pick<LeadStore, 'purgeSensitive'>;
  logger: Logger;
}

/**
 * Removes SSN, bank account, routing and licence numbers from a decided lead (docs/product-rules.md §sensitive-data): the job is queued
 * with the grace period as its delay when the outcome becomes final, so it runs once that period has passed.
 */
export function createSensitiveDataPurgeProcessor(deps: SensitiveDataPurgeDeps) {
  return async function purgeSensitiveData(job: Job): Promise<FollowUpResult> {
    const { leadId } = LeadJobSchema.parse(job.data);
    const removed = await deps.store.purgeSensitive(leadId);
    if (removed < 0) return { skipped: 'lead no longer exists' };
    deps.logger.info({ leadId, jobId: job.id, removed }, 'sensitive fields purged');
    return { done: `purged ${removed} fields` };
  };
}
