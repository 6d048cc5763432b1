import { randomBytes } from 'node:crypto';
import { Queue, type Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { inject } from 'vitest';
import type {} from '@funnel/testing/redis-global-setup';
import { CONSENT_VERSION } from '@funnel/contracts/consent';
import { JOBS, SUBMIT_LEAD_JOB_OPTIONS, queuePrefix } from '@funnel/contracts/jobs';
import type { LeadOutcome } from '@funnel/contracts/lead-outcome';
import {
  SandboxLeadSchema,
  SandboxStatsSchema,
  type SandboxLead,
  type SandboxStats,
} from '@funnel/contracts/lender-sandbox';
import { SAMPLE_LEAD, SAMPLE_SUBMISSION_CONTEXT } from '@funnel/contracts/sample-lead';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore, META } from '@funnel/lead-store/lead-store';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import { freePort, startApp, type AppProcess } from '@funnel/testing/processes';
import { LenderClient } from '../src/lender-client.js';
import { createSubmissionWorker } from '../src/submission-worker.js';

/** A lender sandbox process on a port of its own. */
export async function startSandbox(): Promise<{ url: string; process: AppProcess } & SandboxAdmin> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const process = await startApp({
    entry: 'apps/lender-sandbox/src/server.ts',
    env: {
      SANDBOX_PORT: String(port),
      SANDBOX_PUBLIC_URL: url,
      SANDBOX_LOG_LEVEL: 'warn',
      SANDBOX_LATENCY_MIN_MS: '0',
      SANDBOX_LATENCY_MAX_MS: '0',
    },
    readyUrl: `${url}/healthz`,
  });
  return { url, process, ...sandboxAdmin(url) };
}

export interface SandboxAdmin {
  configure(patch: Record<string, unknown>): Promise<void>;
  reset(): Promise<void>;
  stats(): Promise<SandboxStats>;
  lead(leadId: string): Promise<SandboxLead>;
}

export function sandboxAdmin(url: string): SandboxAdmin {
  return {
    async configure(patch) {
      const response = await fetch(`${url}/_sandbox/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(patch),
      });
      if (!response.ok) throw new Error(`sandbox config refused: ${await response.text()}`);
    },
    async reset() {
      await fetch(`${url}/_sandbox/reset`, { method: 'POST' });
    },
    async stats() {
      return SandboxStatsSchema.parse(await (await fetch(`${url}/_sandbox/stats`)).json());
    },
    async lead(leadId) {
      return SandboxLeadSchema.parse(await (await fetch(`${url}/_sandbox/leads/${leadId}`)).json());
    },
  };
}

/** Everything a test needs to put leads through the pipeline: a store, a queue and helpers, under one prefix. */
export class Pipeline {
  readonly keyPrefix = testKeyPrefix('pipeline');
  readonly encryptionKey = `t1:${randomBytes(32).toString('base64')}`;
  readonly redis: Redis;
  readonly store: LeadStore;
  readonly queue: Queue;

  constructor(readonly redisUrl: string = inject('redisUrl')) {
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    // Fault tests restart Redis under this connection; it reconnects by itself.
    this.redis.on('error', () => {});
    const [key] = this.encryptionKey.split(':').slice(1);
    this.store = new LeadStore(
      this.redis,
      new FieldCipher([{ id: 't1', key: Buffer.from(key!, 'base64') }]),
      {
        keyPrefix: this.keyPrefix,
        ttlMs: 3600_000,
      },
    );
    this.queue = new Queue(JOBS.submitLead.queue, {
      connection: this.redis,
      prefix: queuePrefix(this.keyPrefix),
    });
  }

  /** Env for a worker process reading this pipeline's leads. */
  workerEnv(lenderUrl: string, extra: Record<string, string> = {}): Record<string, string> {
    return {
      REDIS_URL: this.redisUrl,
      REDIS_KEY_PREFIX: this.keyPrefix,
      FIELD_ENCRYPTION_KEYS: this.encryptionKey,
      LENDER_NETWORK_URL: lenderUrl,
      POLL_INTERVAL_MS: '100',
      LOG_LEVEL: 'warn',
      ...extra,
    };
  }

  /** A worker inside the test process, polling fast. */
  startWorker(
    lenderUrl: string,
    options: { pollIntervalMs?: number } = {},
  ): { worker: Worker; close(): Promise<void> } {
    const lender = new LenderClient({
      baseUrl: lenderUrl,
      connections: 8,
      connectTimeoutMs: 1000,
      headersTimeoutMs: 1000,
      bodyTimeoutMs: 1000,
    });
    const worker = createSubmissionWorker(
      {
        store: this.store,
        lender,
        policy: { partnerOfferHosts: [] },
        pollIntervalMs: options.pollIntervalMs ?? 100,
        now: Date.now,
        logger: pino({ level: 'silent' }),
      },
      {
        connection: new Redis(this.redisUrl, { maxRetriesPerRequest: null }),
        keyPrefix: this.keyPrefix,
        concurrency: 50,
        stalledIntervalMs: 1000,
        lockDurationMs: 2000,
      },
    );
    return {
      worker,
      async close() {
        await worker.close();
        await lender.close();
      },
    };
  }

  /**
   * A complete lead, submitted the way the BFF submits it (submission state, consent, pending outcome, job).
   */
  async submitLead(
    options: {
      deadlineMs?: number;
      jobOptions?: Record<string, unknown>;
      fields?: Record<string, unknown>;
    } = {},
  ): Promise<string> {
    const id = await this.store.create(
      { ...SAMPLE_LEAD, ...options.fields },
      SAMPLE_SUBMISSION_CONTEXT.tracking,
    );
    const now = Date.now();
    const consent = {
      version: CONSENT_VERSION,
      textSha256: 'a'.repeat(64),
      button: 'REQUEST_FUNDS',
      at: new Date(now).toISOString(),
      ip: SAMPLE_SUBMISSION_CONTEXT.userIp,
      userAgent: SAMPLE_SUBMISSION_CONTEXT.userAgent,
      pageUrl: SAMPLE_SUBMISSION_CONTEXT.webSiteUrl,
    };
    await this.store.startSubmission(
      id,
      {
        submittedAt: new Date(now).toISOString(),
        deadlineAt: new Date(now + (options.deadlineMs ?? 310_000)).toISOString(),
      },
      { [META.consent]: JSON.stringify(consent) },
    );
    await this.store.setOutcome(id, { outcome: 'pending' });
    await this.enqueue(id, options.jobOptions);
    return id;
  }

  async enqueue(leadId: string, jobOptions: Record<string, unknown> = {}): Promise<void> {
    await this.queue.add(
      JOBS.submitLead.name,
      { leadId },
      { ...SUBMIT_LEAD_JOB_OPTIONS, ...jobOptions, jobId: leadId },
    );
  }

  /** Waits until the lead has a final outcome. */
  async finalOutcome(leadId: string, timeoutMs = 20_000): Promise<LeadOutcome> {
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const outcome = await this.store.getOutcome(leadId);
      if (outcome && outcome.outcome !== 'pending') return outcome;
      if (Date.now() > deadline)
        throw new Error(`lead ${leadId} still ${outcome?.outcome ?? 'without outcome'}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  }

  async close(): Promise<void> {
    await this.queue.close();
    await deleteKeys(this.redis, this.keyPrefix);
    await this.redis.quit();
  }
}
