import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { buyerRecords } from '@funnel/db/buyer-records';
import { openDatabase } from '@funnel/db/database';
import { replicaWaitOf } from '@funnel/server-runtime/replica-wait';
import { Bulkheads, submissionConcurrency } from './buyers/bulkheads.js';
import { BuyerLearning } from './buyers/buyer-learning.js';
import { createBuyerAdapter } from './buyers/create-buyer-adapter.js';
import type { Env } from './env.js';
import type { WorkerMetrics } from './metrics.js';
import { attemptEvent, type AttemptRecord } from './waterfall/attempt-record.js';
import { WaterfallCursors } from './waterfall/waterfall-cursor.js';
import type { WaterfallDeps } from './waterfall/waterfall.js';

/**
 * What a worker with a buyers file needs to offer its leads (ADR 0012, 0017, 0020): an adapter and a bulkhead
 * per buyer, the job concurrency that leaves room beyond their shares, the cursors, and in auction mode the
 * buyers' records learned from the system of record (read every `refreshMs`, started here and stopped by
 * `close`). Without a buyers file, only the concurrency.
 */
export function buildBuyerWalks(
  env: Env,
  deps: {
    connection: Redis;
    metrics: WorkerMetrics;
    logger: Logger;
    /** Writes an attempt's event to the system of record, when there is one. */
    recordAttempt: ((event: LeadEvent) => Promise<unknown>) | undefined;
  },
): { waterfall: WaterfallDeps | undefined; concurrency: number; close(): Promise<void> } {
  const { metrics, logger } = deps;
  const adapters = new Map(
    (env.BUYERS?.buyers ?? []).map((buyer) => [
      buyer.id,
      createBuyerAdapter(
        buyer,
        (id, endpoint, result, seconds) => {
          metrics.upstreamCalls.inc({ endpoint: `${id}:${endpoint}`, result });
          metrics.upstreamSeconds.observe({ endpoint: `${id}:${endpoint}` }, seconds);
        },
        { maxResponseBytes: env.UPSTREAM_RESPONSE_MAX_BYTES },
      ),
    ]),
  );
  // Each buyer's share of this process (ADR 0017); the job concurrency leaves room beyond their sum.
  const bulkheads = env.BUYERS ? new Bulkheads(env.BUYERS.buyers) : undefined;
  const concurrency = submissionConcurrency(env.WORKER_CONCURRENCY, bulkheads);
  if (env.BUYERS && bulkheads) {
    metrics.watchBulkheads(
      env.BUYERS.buyers.map((buyer) => buyer.id),
      (buyer) => bulkheads.inFlight(buyer),
    );
  }
  if (concurrency !== env.WORKER_CONCURRENCY) {
    logger.warn(
      { configured: env.WORKER_CONCURRENCY, concurrency, buyersShare: bulkheads?.total },
      "WORKER_CONCURRENCY raised to leave room beyond the buyers' shares",
    );
  }
  // An auction ranks its candidates on what each buyer really paid over a rolling window (ADR 0020); without a
  // system of record, every buyer is ranked on the priors.
  const auction = env.BUYERS?.mode === 'auction' ? env.BUYERS.auction : undefined;
  const db = auction && env.DATABASE_URL ? openDatabase({ url: env.DATABASE_URL, max: 1 }) : undefined;
  const learning =
    auction && db
      ? new BuyerLearning(
          () =>
            buyerRecords(db, {
              now: Date.now(),
              windowMs: auction.windowMs,
              returnWindowMs: auction.returnWindowMs,
            }),
          auction.refreshMs,
          logger,
        )
      : undefined;
  learning?.start();

  const waterfall: WaterfallDeps | undefined =
    env.BUYERS && bulkheads
      ? {
          buyers: env.BUYERS,
          adapters,
          bulkheads,
          learning,
          cursors: new WaterfallCursors(deps.connection, env.REDIS_KEY_PREFIX, replicaWaitOf(env)),
          policy: { partnerOfferHosts: env.PARTNER_OFFER_HOSTS },
          now: Date.now,
          onAttempt: async (attempt: AttemptRecord) => {
            metrics.buyerAttempts.inc({ buyer: attempt.buyer, result: attempt.result });
            if (attempt.result !== 'capped')
              metrics.buyerAttemptSeconds.observe({ buyer: attempt.buyer }, attempt.latencyMs / 1000);
            if (attempt.price !== undefined)
              metrics.buyerRevenue.inc({ buyer: attempt.buyer }, attempt.price);
            await deps.recordAttempt?.(attemptEvent(attempt));
          },
          onSaturated: (buyer: string, action: 'waited' | 'moved_on') =>
            metrics.buyerSaturated.inc({ buyer, action }),
        }
      : undefined;

  return {
    waterfall,
    concurrency,
    async close() {
      await learning?.stop();
      await Promise.all([...adapters.values()].map((adapter) => adapter.close()));
      await db?.destroy();
    },
  };
}
