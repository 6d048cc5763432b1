import { Worker, type Processor } from 'bullmq';
import type { Redis } from 'ioredis';
import { isRedisOutageEcho, type RedisWatch } from '@funnel/server-runtime/redis-watch';
import type { Logger } from 'pino';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
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

export interface FollowUpWorkerOptions {
  connection: Redis;
  keyPrefix: string;
  /** Jobs processed at once per queue; these are short calls, mostly waiting on a third party. */
  concurrency: number;
  /** While Redis is down the worker's errors are the outage's echo, logged once by the watcher. */
  redisWatch?: RedisWatch;
}

/**
 * The BullMQ workers of a lead's follow-up queues: mailing-list sync, cross-sell forwarding, TrustedForm
 * retain and the sensitive-data purge. Each always runs, configured or not: an unconfigured service makes its
 * jobs end as skipped rather than pile up.
 */
export function createFollowUpWorkers(deps: FollowUpDeps, options: FollowUpWorkerOptions): Worker[] {
  const processors: Array<[string, Processor<unknown, FollowUpResult>]> = [
    [JOBS.mailingListSync.queue, createMailingListSyncProcessor(deps)],
    [JOBS.crossSellForward.queue, createCrossSellForwardProcessor(deps)],
    [JOBS.trustedFormRetain.queue, createTrustedFormRetainProcessor(deps)],
    [JOBS.sensitiveDataPurge.queue, createSensitiveDataPurgeProcessor(deps)],
  ];
  return processors.map(([queue, processor]) => {
    const worker = new Worker<unknown, FollowUpResult>(queue, processor, {
      connection: options.connection,
      prefix: queuePrefix(options.keyPrefix),
      concurrency: options.concurrency,
    });
    worker.on('error', (err) => {
      if (isRedisOutageEcho(err, options.redisWatch)) return;
      deps.logger.error({ err, queue }, 'follow-up worker error');
    });
    worker.on('failed', (job, err) => {
      if (!job) return;
      const finalFailure = err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
      if (finalFailure)
        deps.logger.error({ queue, jobId: job.id, err: err.message }, 'follow-up job abandoned');
    });
    return worker;
  });
}
