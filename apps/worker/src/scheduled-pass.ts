import { Worker, type Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { JOBS, queuePrefix, type JobOptions } from '@funnel/contracts/jobs';
import type { QueueSource } from '@funnel/server-runtime/job-queue';
import { evalScript } from '@funnel/lead-store/redis-script';

// A pass longer than the interval would let the scheduler's next job start on another worker (BullMQ adds the
// next job when one starts), so a pass also holds a lock; one that finds it taken skips its turn.
const LOCK_TTL_MS = 60_000;

export interface ScheduledPassOptions {
  connection: Redis;
  /** Where the pass's queue is opened (once per process). */
  queues: QueueSource;
  keyPrefix: string;
  everyMs: number;
  logger: Logger;
}

/**
 * Runs `pass` every `everyMs` as a BullMQ job scheduler on the queue `name`: every worker process upserts the same
 * scheduler and consumes the queue; the scheduler produces one job per interval whichever workers run, and a lock
 * (held `lockTtlMs` at most) keeps passes from overlapping, so one pass runs at a time across all workers and the
 * schedule survives any one's death.
 */
export async function startScheduledPass(
  name: string,
  pass: () => Promise<unknown>,
  options: ScheduledPassOptions & { lockTtlMs: number; schedulerId?: string; jobOptions?: JobOptions },
): Promise<{ queue: Queue; worker: Worker }> {
  const prefix = queuePrefix(options.keyPrefix);
  const queue = options.queues.queue(name);
  const schedulerId = options.schedulerId ?? name;
  await queue.upsertJobScheduler(
    schedulerId,
    { every: options.everyMs },
    { name: schedulerId, opts: options.jobOptions ?? { removeOnComplete: 100, removeOnFail: 100 } },
  );
  const lockKey = `${options.keyPrefix}${name}:lock`;
  const token = `${process.pid}:${Math.random()}`;
  const locked = async () => {
    if ((await options.connection.set(lockKey, token, 'PX', options.lockTtlMs, 'NX')) !== 'OK')
      return 'skipped';
    try {
      return await pass();
    } finally {
      await evalScript(
        options.connection,
        "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
        1,
        lockKey,
        token,
      );
    }
  };
  const worker = new Worker(name, locked, { connection: options.connection, prefix, concurrency: 1 });
  worker.on('failed', (_job, err) =>
    options.logger.warn({ err: err.message, pass: name }, 'scheduled pass failed'),
  );
  worker.on('error', (err) =>
    options.logger.warn({ err: err.message, pass: name }, 'scheduled pass worker error'),
  );
  return { queue, worker };
}

/** The reconciler's pass ({@link startScheduledPass}), one at a time across all workers. */
export async function startReconcilerWorker(
  reconcile: () => Promise<void>,
  options: ScheduledPassOptions,
): Promise<{ queue: Queue; worker: Worker }> {
  return startScheduledPass(JOBS.reconcile.queue, reconcile, {
    ...options,
    lockTtlMs: LOCK_TTL_MS,
    schedulerId: JOBS.reconcile.jobId({}),
    jobOptions: JOBS.reconcile.options,
  });
}
