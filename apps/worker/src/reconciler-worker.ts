import { Queue, Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { queuePrefix } from '@funnel/contracts/jobs';
import { evalScript } from '@funnel/lead-store/redis-script';

export const RECONCILE_QUEUE = 'reconciler';
const SCHEDULER_ID = 'reconcile';

// A pass longer than the interval would let the scheduler's next job start on another worker (BullMQ adds the
// next job when one starts), so a pass also holds a lock; one that finds it taken skips its turn.
const LOCK_TTL_MS = 60_000;

/**
 * Runs `reconcile` every `everyMs` as a BullMQ job scheduler: every worker process upserts the same scheduler
 * and consumes the queue; the scheduler produces one job per interval whichever workers run, and a lock keeps
 * passes from overlapping, so one reconciliation runs at a time across all workers and survives any one's death.
 */
export async function startReconcilerWorker(
  reconcile: () => Promise<void>,
  options: { connection: Redis; keyPrefix: string; everyMs: number; logger: Logger },
): Promise<{ queue: Queue; worker: Worker }> {
  const prefix = queuePrefix(options.keyPrefix);
  const queue = new Queue(RECONCILE_QUEUE, { connection: options.connection, prefix });
  await queue.upsertJobScheduler(
    SCHEDULER_ID,
    { every: options.everyMs },
    { name: 'reconcile', opts: { removeOnComplete: 100, removeOnFail: 100 } },
  );
  const lockKey = `${options.keyPrefix}reconciler:lock`;
  const token = `${process.pid}:${Math.random()}`;
  const pass = async () => {
    if ((await options.connection.set(lockKey, token, 'PX', LOCK_TTL_MS, 'NX')) !== 'OK') return 'skipped';
    try {
      await reconcile();
      return 'done';
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
  const worker = new Worker(RECONCILE_QUEUE, pass, {
    connection: options.connection,
    prefix,
    concurrency: 1,
  });
  worker.on('failed', (_job, err) => options.logger.warn({ err: err.message }, 'reconciliation failed'));
  worker.on('error', (err) => options.logger.warn({ err: err.message }, 'reconciler worker error'));
  return { queue, worker };
}
