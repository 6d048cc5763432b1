import type { Processor, Worker } from 'bullmq';
import type { Logger } from 'pino';
import { JOBS, type LeadJob } from '@funnel/contracts/jobs';
import { startQueueWorker, type QueueWorkerOptions } from '@funnel/server-runtime/job-queue';
import {
  createCrossSellForwardProcessor,
  type CrossSellForwardDeps,
} from './cross-sell-forward-processor.js';
import type { FollowUpResult } from './follow-up-result.js';
import { createMailingListSyncProcessor, type MailingListSyncDeps } from './mailing-list-sync-processor.js';
import {
  createSensitiveDataPurgeProcessor,
  type SensitiveDataPurgeDeps,
} from './sensitive-data-purge-processor.js';
import {
  createTrustedFormRetainProcessor,
  type TrustedFormRetainDeps,
} from './trustedform-retain-processor.js';

export type FollowUpDeps = MailingListSyncDeps &
  CrossSellForwardDeps &
  TrustedFormRetainDeps &
  SensitiveDataPurgeDeps & { logger: Logger };

export type FollowUpWorkerOptions = Omit<QueueWorkerOptions<LeadJob>, 'logger' | 'onFinalFailure'>;

/**
 * The BullMQ workers of a lead's follow-up queues: mailing-list sync, cross-sell forwarding, TrustedForm
 * retain and the sensitive-data purge. Each always runs, configured or not: an unconfigured service makes its
 * jobs end as skipped rather than pile up.
 */
export function createFollowUpWorkers(deps: FollowUpDeps, options: FollowUpWorkerOptions): Worker[] {
  const start = (job: (typeof JOBS)[FollowUpJob], processor: Processor<unknown, FollowUpResult>) =>
    startQueueWorker(job, processor, { ...options, logger: deps.logger });
  return [
    start(JOBS.mailingListSync, createMailingListSyncProcessor(deps)),
    start(JOBS.crossSellForward, createCrossSellForwardProcessor(deps)),
    start(JOBS.trustedFormRetain, createTrustedFormRetainProcessor(deps)),
    start(JOBS.sensitiveDataPurge, createSensitiveDataPurgeProcessor(deps)),
  ];
}

type FollowUpJob = 'mailingListSync' | 'crossSellForward' | 'trustedFormRetain' | 'sensitiveDataPurge';
