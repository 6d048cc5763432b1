import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { isRedisOutageEcho, type RedisWatch } from '@funnel/server-runtime/redis-watch';
import { JOBS, SubmitLeadJobSchema, queuePrefix } from '@funnel/contracts/jobs';
import {
  createSubmitLeadProcessor,
  type SubmitLeadDeps,
  type SubmitLeadResult,
} from './submit-lead-processor.js';

export interface SubmissionWorkerOptions {
  connection: Redis;
  keyPrefix: string;
  concurrency: number;
  stalledIntervalMs: number;
  lockDurationMs: number;
  /** While Redis is down the worker's errors are the outage's echo, logged once by the watcher. */
  redisWatch?: RedisWatch;
}

/**
 * The BullMQ worker for lead submissions. Whatever happens to a job, its lead ends with a final outcome: a job
 * that fails for good (an unexpected error after every retry) ends its lead as "no lender".
 */
export function createSubmissionWorker(deps: SubmitLeadDeps, options: SubmissionWorkerOptions): Worker {
  const worker = new Worker<unknown, SubmitLeadResult>(
    JOBS.submitLead.queue,
    createSubmitLeadProcessor(deps),
    {
      connection: options.connection,
      prefix: queuePrefix(options.keyPrefix),
      concurrency: options.concurrency,
      stalledInterval: options.stalledIntervalMs,
      lockDuration: options.lockDurationMs,
      maxStalledCount: 3,
    },
  );

  worker.on('error', (err) => {
    if (isRedisOutageEcho(err, options.redisWatch)) return;
    // A lock lost (Redis away longer than the lock, or a blocked event loop): the stalled check hands the job
    // to a worker again, and the lead's own state says where it stands. Worth a warning, not a person.
    const lostLock = /(?:could not renew lock|Missing lock|Lock mismatch) for job ([^.\s]+)/.exec(
      err.message,
    );
    if (lostLock) {
      deps.logger.warn({ leadId: lostLock[1], err: err.message }, 'submission job lock lost');
      return;
    }
    deps.logger.error({ err }, 'submission worker error');
  });
  worker.on('failed', (job, err) => {
    if (!job) return;
    const finalFailure = err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (!finalFailure) {
      // Retried with backoff: worth a warning, not a person's attention.
      deps.logger.warn(
        { jobId: job.id, err: err.message, attempt: job.attemptsMade },
        'submission job will retry',
      );
      return;
    }
    deps.logger.error({ jobId: job.id, err: err.message }, 'submission job failed for good');
    const parsed = SubmitLeadJobSchema.safeParse(job.data);
    if (!parsed.success) return;
    void deps.store
      .setOutcome(parsed.data.leadId, { outcome: 'no_lender', reason: 'internal_error' })
      .then(() => deps.onFinalOutcome(parsed.data.leadId))
      .catch((error: unknown) =>
        deps.logger.error({ err: error }, 'could not record the outcome of a failed job'),
      );
  });
  return worker;
}
