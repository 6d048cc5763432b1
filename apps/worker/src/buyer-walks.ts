import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Logger } from 'pino';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { currentBuyerConfig, currentBuyerVersion, importBuyersIfEmpty } from '@funnel/db/buyer-config';
import type { ContactSealer } from '@funnel/db/consent-archive';
import { buyerRecords } from '@funnel/db/buyer-records';
import { openDatabase } from '@funnel/db/database';
import {
  buyerConfigChannel,
  forgetBuyerWorker,
  noteBuyerWorker,
} from '@funnel/server-runtime/buyer-config-signal';
import { buyerAddressAllowList } from '@funnel/server-runtime/env-fields';
import { replicaWaitOf } from '@funnel/server-runtime/replica-wait';
import { submissionConcurrency } from './buyers/bulkheads.js';
import { BuyerBreakers } from './buyers/buyer-breakers.js';
import { BuyerConfigWatcher } from './buyers/buyer-config-watcher.js';
import { BuyerLearning } from './buyers/buyer-learning.js';
import { BuyerRegistry } from './buyers/buyer-registry.js';
import { createBuyerAdapter } from './buyers/create-buyer-adapter.js';
import type { Env } from './env.js';
import type { WorkerMetrics } from './metrics.js';
import { attemptEvent, type AttemptRecord } from './waterfall/attempt-record.js';
import { WaterfallCursors } from './waterfall/waterfall-cursor.js';
import type { WaterfallDeps } from './waterfall/waterfall.js';

/** The longest a worker's start waits for the system of record's buyers before it runs the file's. */
const FIRST_READ_MS = 3000;

/**
 * What a worker with a buyers file needs to offer its leads (ADR 0012, 0017, 0020, 0022): the registry of the
 * running buyers (an adapter and a bulkhead per buyer), kept on the system of record's newest version by a
 * watcher when there is a system of record; the job concurrency that leaves room beyond the buyers' shares; the
 * cursors; and in auction mode the buyers' records learned from the system of record (read every `refreshMs`).
 * Everything started here is stopped by `close`. Without a buyers file, only the concurrency.
 */
export async function buildBuyerWalks(
  env: Env,
  deps: {
    connection: Redis;
    metrics: WorkerMetrics;
    logger: Logger;
    /** Opens the credentials sealed in the system of record. */
    sealer: ContactSealer;
    /** Writes an attempt's event to the system of record, when there is one. */
    recordAttempt: ((event: LeadEvent) => Promise<unknown>) | undefined;
    /** Settles once the system of record is migrated: the buyers' tables are not read before. */
    systemOfRecordReady?: Promise<unknown> | undefined;
  },
): Promise<{
  waterfall: WaterfallDeps | undefined;
  /** The buyers this worker runs (a manager's test lead goes through it); none without a buyers file. */
  registry: BuyerRegistry | undefined;
  concurrency: number;
  close(): Promise<void>;
}> {
  const { metrics, logger } = deps;
  if (!env.BUYERS) {
    return {
      waterfall: undefined,
      registry: undefined,
      concurrency: env.WORKER_CONCURRENCY,
      async close() {},
    };
  }
  const file = env.BUYERS;
  const addresses = buyerAddressAllowList(env);
  const registry = new BuyerRegistry({ version: 0, file, paused: [] }, (buyer) =>
    createBuyerAdapter(
      buyer,
      (id, endpoint, result, seconds) => {
        metrics.upstreamCalls.inc({ endpoint: `${id}:${endpoint}`, result });
        metrics.upstreamSeconds.observe({ endpoint: `${id}:${endpoint}` }, seconds);
      },
      { maxResponseBytes: env.UPSTREAM_RESPONSE_MAX_BYTES, addresses },
    ),
  );
  const db = env.DATABASE_URL
    ? openDatabase({ url: env.DATABASE_URL, password: env.PGPASSWORD, max: 2 })
    : undefined;
  const workerId = `${hostname()}-${process.pid}`;
  let appliedAt = Date.now();
  const watcher = db
    ? new BuyerConfigWatcher({
        registry,
        version: () => currentBuyerVersion(db),
        load: () => currentBuyerConfig(db, deps.sealer),
        importFile: () => importBuyersIfEmpty(db, deps.sealer, file),
        ready: deps.systemOfRecordReady,
        subscriber: deps.connection.duplicate({ maxRetriesPerRequest: null }),
        channel: buyerConfigChannel(env.REDIS_KEY_PREFIX),
        pollMs: env.BUYERS_POLL_MS,
        logger,
        onApplied: () => {
          appliedAt = Date.now();
        },
        onChecked: (version) =>
          noteBuyerWorker(deps.connection, env.REDIS_KEY_PREFIX, workerId, {
            version,
            appliedAt,
            seenAt: Date.now(),
            everyMs: env.BUYERS_POLL_MS,
          }),
      })
    : undefined;
  // The system of record's buyers (a pause, say) before the first lead when it answers in time; the file's
  // meanwhile otherwise, replaced as soon as it does.
  if (watcher)
    await Promise.race([watcher.start(), new Promise((r) => setTimeout(r, FIRST_READ_MS).unref())]);

  // Each buyer's share of this process (ADR 0017); the job concurrency leaves room beyond their sum at start.
  const concurrency = submissionConcurrency(env.WORKER_CONCURRENCY, registry.bulkheads);
  metrics.watchBulkheads(
    () => registry.current.file.buyers.map((buyer) => buyer.id),
    (buyer) => registry.bulkheads.inFlight(buyer),
  );
  if (concurrency !== env.WORKER_CONCURRENCY) {
    logger.warn(
      { configured: env.WORKER_CONCURRENCY, concurrency, buyersShare: registry.bulkheads.total },
      "WORKER_CONCURRENCY raised to leave room beyond the buyers' shares",
    );
  }
  // An auction ranks its candidates on what each buyer really paid over a rolling window (ADR 0020); without a
  // system of record, every buyer is ranked on the priors. The mode and the auction's settings are the live
  // document's, read at each refresh (ADR 0022): buyers switched to auction mode are learned from within
  // `BUYERS_POLL_MS`, without a restart; in waterfall mode nothing is read.
  const liveAuction = () => {
    const current = registry.current.file;
    return current.mode === 'auction' ? current.auction : undefined;
  };
  const learning = db
    ? new BuyerLearning(
        async () => {
          const auction = liveAuction();
          if (!auction) return undefined;
          return buyerRecords(db, {
            now: Date.now(),
            windowMs: auction.windowMs,
            returnWindowMs: auction.returnWindowMs,
          });
        },
        () => liveAuction()?.refreshMs ?? env.BUYERS_POLL_MS,
        logger,
      )
    : undefined;
  learning?.start();

  const waterfall: WaterfallDeps = {
    // Read at each use: a new version of the document is run from the next plan or attempt on (ADR 0022).
    get buyers() {
      return registry.current.file;
    },
    get adapters() {
      return registry.current.adapters;
    },
    bulkheads: registry.bulkheads,
    isPaused: (buyer) => registry.isHeld(buyer),
    breakers: new BuyerBreakers(deps.connection, env.REDIS_KEY_PREFIX, {
      now: Date.now,
      onTransition: ({ buyer, from, to, breaker }) => {
        metrics.buyerBreakerTransitions.inc({ buyer, to });
        logger.warn(
          {
            buyer,
            from,
            to,
            failures: breaker.failures,
            ...(to === 'open' ? { openUntil: new Date(breaker.openUntil).toISOString() } : {}),
          },
          'buyer breaker changed',
        );
      },
      onSkip: (buyer) => metrics.buyerBreakerSkips.inc({ buyer }),
    }),
    learning,
    cursors: new WaterfallCursors(deps.connection, env.REDIS_KEY_PREFIX, replicaWaitOf(env)),
    policy: { partnerOfferHosts: env.PARTNER_OFFER_HOSTS },
    now: Date.now,
    onAttempt: async (attempt: AttemptRecord) => {
      metrics.buyerAttempts.inc({ buyer: attempt.buyer, result: attempt.result });
      if (attempt.result !== 'capped')
        metrics.buyerAttemptSeconds.observe({ buyer: attempt.buyer }, attempt.latencyMs / 1000);
      if (attempt.price !== undefined) metrics.buyerRevenue.inc({ buyer: attempt.buyer }, attempt.price);
      await deps.recordAttempt?.(attemptEvent(attempt));
    },
    onSaturated: (buyer: string, action: 'waited' | 'moved_on') =>
      metrics.buyerSaturated.inc({ buyer, action }),
  };

  return {
    waterfall,
    registry,
    concurrency,
    async close() {
      await watcher?.stop();
      // Stopped on purpose: not listed as a gone worker.
      if (watcher)
        await forgetBuyerWorker(deps.connection, env.REDIS_KEY_PREFIX, workerId).catch((error: unknown) =>
          metrics.reportFailure('buyer_worker_forget', error),
        );
      await learning?.stop();
      await registry.close();
      await db?.destroy();
    },
  };
}
