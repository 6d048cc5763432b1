import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { BuyersFileSchema, type BuyerInput, type BuyersFile } from '@funnel/contracts/buyers';
import {
  SandboxBuyersStatsSchema,
  SandboxPingRecordingSchema,
  type SandboxBuyerInput,
  type SandboxBuyerStats,
  type SandboxPingRecording,
} from '@funnel/contracts/sandbox-buyers';
import { freePort, startApp, type AppProcess } from '@funnel/testing/processes';
import type { BuyerAdapter } from '../src/buyers/buyer-adapter.js';
import { Bulkheads } from '../src/buyers/bulkheads.js';
import type { BuyerBreakers } from '../src/buyers/buyer-breakers.js';
import type { BuyerLearning } from '../src/buyers/buyer-learning.js';
import type { BuyerRegistry } from '../src/buyers/buyer-registry.js';
import { createBuyerAdapter } from '../src/buyers/create-buyer-adapter.js';
import { sampleLeadRecord } from '../src/buyers/sample-lead-record.js';
import { JOBS } from '@funnel/contracts/jobs';
import { startQueueWorker } from '@funnel/server-runtime/job-queue';
import {
  createSubmitLeadProcessor,
  settleFailedSubmission,
} from '../src/submission/submit-lead-processor.js';
import { WaterfallCursors } from '../src/waterfall/waterfall-cursor.js';
import type { AttemptRecord } from '../src/waterfall/attempt-record.js';
import type { Pipeline } from './pipeline-fixture.js';

/** A lender sandbox process serving simulated buyers under /buyers/{id}. */
export async function startBuyersSandbox(buyers: SandboxBuyerInput[]): Promise<{
  url: string;
  process: AppProcess;
  buyerUrl(id: string): string;
  stats(): Promise<Record<string, SandboxBuyerStats>>;
  /** What a ping-post buyer's pings carried (`GET /buyers/{id}/_sandbox/pings`). */
  pings(id: string): Promise<SandboxPingRecording>;
  reset(): Promise<void>;
}> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const file = join(mkdtempSync(join(tmpdir(), 'sandbox-buyers-')), 'buyers.json');
  writeFileSync(file, JSON.stringify({ buyers }));
  const process = await startApp({
    entry: 'apps/lender-sandbox/src/server.ts',
    env: {
      SANDBOX_PORT: String(port),
      SANDBOX_PUBLIC_URL: url,
      SANDBOX_LOG_LEVEL: 'warn',
      SANDBOX_BUYERS_FILE: file,
    },
    readyUrl: `${url}/healthz`,
  });
  return {
    url,
    process,
    buyerUrl: (id) => `${url}/buyers/${id}`,
    async stats() {
      const body = SandboxBuyersStatsSchema.parse(await (await fetch(`${url}/_sandbox/buyers`)).json());
      return Object.fromEntries(body.buyers.map((b) => [b.id, b]));
    },
    async pings(id) {
      return SandboxPingRecordingSchema.parse(
        await (await fetch(`${url}/buyers/${id}/_sandbox/pings`)).json(),
      );
    },
    async reset() {
      await fetch(`${url}/_sandbox/buyers/reset`, { method: 'POST' });
    },
  };
}

/**
 * The environment of a worker process (`apps/worker/src/main.ts`) offering leads to `buyers` (a buyers file's
 * content, written to a file of its own), quick to notice a crashed worker's jobs (stalled after 2 s).
 */
export function workerProcessEnv(
  pipeline: Pipeline,
  sandboxUrl: string,
  buyers: object,
): Record<string, string> {
  const file = join(mkdtempSync(join(tmpdir(), 'buyers-')), 'buyers.json');
  writeFileSync(file, JSON.stringify(buyers));
  return pipeline.workerEnv(sandboxUrl, {
    LOG_LEVEL: 'info',
    BUYERS_FILE: file,
    WORKER_METRICS_PORT: '0',
    STALLED_INTERVAL_MS: '1000',
    LOCK_DURATION_MS: '2000',
  });
}

export function buyersFile(
  buyers: BuyerInput[],
  timeZone = 'America/Chicago',
  more: { mode?: 'waterfall' | 'auction'; auction?: Record<string, unknown> } = {},
): BuyersFile {
  return BuyersFileSchema.parse({ timeZone, buyers, ...more });
}

/** A submission worker walking `buyers`, inside the test process; every attempt it ends is kept in `attempts`. */
export function startWaterfallWorker(
  pipeline: Pipeline,
  buyers: BuyersFile,
  options: {
    concurrency?: number;
    learning?: BuyerLearning;
    registry?: BuyerRegistry;
    breakers?: BuyerBreakers;
  } = {},
) {
  const adapters = new Map<string, BuyerAdapter>(buyers.buyers.map((b) => [b.id, createBuyerAdapter(b)]));
  const { registry } = options;
  const cursors = new WaterfallCursors(pipeline.redis, pipeline.keyPrefix);
  const bulkheads = new Bulkheads(buyers.buyers);
  const attempts: AttemptRecord[] = [];
  const connection = new Redis(pipeline.redisUrl, { maxRetriesPerRequest: null });
  const logger = pino({ level: 'silent' });
  const worker = startQueueWorker(
    JOBS.submitLead,
    createSubmitLeadProcessor({
      store: pipeline.store,
      // The waterfall never calls the single network.
      lender: {
        submit: () => Promise.reject(new Error('not used with buyers')),
        ping: () => Promise.reject(new Error('not used with buyers')),
      },
      policy: { partnerOfferHosts: [] },
      pollIntervalMs: 100,
      now: Date.now,
      logger,
      postClaimMs: 3000,
      postBudgetMs: 2000,
      waterfall: {
        // With a registry, the buyers it runs now (ADR 0022), read at each use as the worker does.
        get buyers() {
          return registry?.current.file ?? buyers;
        },
        get adapters() {
          return registry?.current.adapters ?? adapters;
        },
        bulkheads: registry?.bulkheads ?? bulkheads,
        isPaused: (buyer) => registry?.isHeld(buyer) ?? false,
        breakers: options.breakers,
        cursors,
        learning: options.learning,
        policy: { partnerOfferHosts: [] },
        now: Date.now,
        onAttempt: async (attempt) => {
          attempts.push(attempt);
        },
      },
      onFinalOutcome: async () => {},
    }),
    {
      logger,
      connection,
      keyPrefix: pipeline.keyPrefix,
      concurrency: options.concurrency ?? 20,
      stalledIntervalMs: 1000,
      lockDurationMs: 2000,
      maxStalledCount: 3,
      onFinalFailure: settleFailedSubmission({ store: pipeline.store, onFinalOutcome: async () => {} }),
    },
  );
  return {
    worker,
    attempts,
    cursors,
    adapters,
    bulkheads,
    attemptsOf: (leadId: string) => attempts.filter((a) => a.leadId === leadId),
    async close() {
      await worker.close();
      await Promise.all([...adapters.values()].map((a) => a.close()));
      await connection.quit();
    },
  };
}

/** The sample lead as the worker reads it from the store (what the adapters post). */
export const storedSampleLead = sampleLeadRecord;
