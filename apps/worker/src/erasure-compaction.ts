import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import { DiskErasure, ERASURE_COMPACTION_QUEUE } from '@funnel/lead-store/disk-erasure';
import type { JobQueues } from '@funnel/server-runtime/job-queue';
import type { Env } from './env.js';
import type { WorkerMetrics } from './metrics.js';
import { startScheduledPass } from './scheduled-pass.js';

/** Rewrites erased data out of Redis's AOF and RDB after deletion requests, one pass per interval (ADR 0014). */
export function startErasureCompaction(
  env: Env,
  {
    connection,
    queues,
    metrics,
    logger,
  }: { connection: Redis; queues: JobQueues; metrics: WorkerMetrics; logger: Logger },
) {
  const diskErasure = new DiskErasure(connection, { keyPrefix: env.REDIS_KEY_PREFIX });
  return startScheduledPass(
    ERASURE_COMPACTION_QUEUE,
    async () => {
      const result = await diskErasure.compact();
      if (result === 'idle') return result;
      metrics.erasureCompactions.inc({ result });
      const level =
        result === 'rewritten' || result === 'no-persistence' || result === 'busy' ? 'info' : 'warn';
      logger[level]({ result }, 'erasure compaction');
      return result;
    },
    {
      connection,
      queues,
      keyPrefix: env.REDIS_KEY_PREFIX,
      everyMs: env.ERASURE_REWRITE_INTERVAL_MS,
      logger,
      // A rewrite of a large AOF may take minutes; the pass waits for it (and gives up after 10).
      lockTtlMs: 11 * 60_000,
    },
  );
}
