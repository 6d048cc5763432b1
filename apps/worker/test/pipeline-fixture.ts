import { randomBytes } from 'node:crypto';
import type { JobsOptions, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { inject } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { CONSENT_VERSION, type ConsentRecord } from '@funnel/contracts/consent';
import { JOBS } from '@funnel/contracts/jobs';
import type { LeadOutcome } from '@funnel/contracts/lead-outcome';
import type { PartnerLeadMeta } from '@funnel/contracts/partner-api';
import {
  SandboxLeadSchema,
  SandboxStatsSchema,
  type SandboxLead,
  type SandboxStats,
} from '@funnel/contracts/lender-sandbox';
import { SAMPLE_LEAD, SAMPLE_SUBMISSION_CONTEXT } from '@funnel/contracts/sample-lead';
import type { EventOutbox } from '@funnel/lead-store/event-outbox';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore, META } from '@funnel/lead-store/lead-store';
import { submissionEvidence } from '@funnel/lead-store/submission-evidence';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import { freePort, startApp, type AppProcess } from '@funnel/testing/processes';
import type { PartnerWebhookSecrets } from '@funnel/lead-store/partner-config';
import { JobQueues, enqueue, startQueueWorker } from '@funnel/server-runtime/job-queue';
import { buildWorker, type BuiltWorker } from '../src/build-worker.js';
import { loadEnv } from '../src/env.js';
import { createWebhookDeliveryProcessor } from '../src/final-outcome/webhook-delivery-processor.js';
import { WebhookSender } from '../src/final-outcome/webhook-sender.js';

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

/** A consent record as the BFF stores it on a submitted lead (its time: the submission's). */
export const SAMPLE_CONSENT: ConsentRecord = {
  version: CONSENT_VERSION,
  textSha256: 'a'.repeat(64),
  button: 'REQUEST_FUNDS',
  at: new Date().toISOString(),
  ip: SAMPLE_SUBMISSION_CONTEXT.userIp,
  userAgent: SAMPLE_SUBMISSION_CONTEXT.userAgent,
  pageUrl: SAMPLE_SUBMISSION_CONTEXT.webSiteUrl,
};

/** Everything a test needs to put leads through the pipeline: a store, a queue and helpers, under one prefix. */
export class Pipeline {
  readonly keyPrefix = testKeyPrefix('pipeline');
  readonly encryptionKey = `t1:${randomBytes(32).toString('base64')}`;
  readonly suppressionSecret = randomBytes(32).toString('hex');
  /** The key ring of `encryptionKey`, as the worker builds it. */
  readonly cipher: FieldCipher;
  readonly redis: Redis;
  readonly store: LeadStore;
  readonly queues: JobQueues;

  constructor(readonly redisUrl: string = inject('redisUrl')) {
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    // Fault tests restart Redis under this connection; it reconnects by itself.
    this.redis.on('error', () => {});
    const [key] = this.encryptionKey.split(':').slice(1);
    this.cipher = new FieldCipher([{ id: 't1', key: Buffer.from(key!, 'base64') }]);
    this.store = new LeadStore(this.redis, this.cipher, { keyPrefix: this.keyPrefix, ttlMs: 3600_000 });
    this.queues = new JobQueues(this.redis, this.keyPrefix);
  }

  /** The submission queue and the partner-webhook queue under this pipeline's prefix. */
  get queue(): Queue {
    return this.queues.queue(JOBS.submitLead.queue);
  }

  get webhookQueue(): Queue {
    return this.queues.queue(JOBS.partnerWebhook.queue);
  }

  /** Env for a worker process reading this pipeline's leads. */
  workerEnv(lenderUrl: string, extra: Record<string, string> = {}): Record<string, string> {
    return {
      REDIS_URL: this.redisUrl,
      REDIS_KEY_PREFIX: this.keyPrefix,
      FIELD_ENCRYPTION_KEYS: this.encryptionKey,
      SUPPRESSION_HASH_SECRET: this.suppressionSecret,
      LENDER_NETWORK_URL: lenderUrl,
      POLL_INTERVAL_MS: '100',
      LOG_LEVEL: 'warn',
      ...extra,
    };
  }

  /**
   * The worker as deployed (`buildWorker`) inside the test process, polling fast, running its submission
   * consumer only: the tests start the other consumers they look at.
   */
  async startWorker(
    lenderUrl: string,
    options: {
      pollIntervalMs?: number;
      /** Overrides of the catalog's options for the jobs the worker adds. */
      jobOptions?: JobsOptions;
      /** More of the worker's environment (e.g. TrustedForm, the purge's grace period). */
      env?: Record<string, string>;
      /** More to do once an outcome is final (e.g. a test's own hook). */
      alsoOnFinalOutcome?: (leadId: string) => Promise<void>;
    } = {},
  ): Promise<BuiltWorker> {
    const env = loadEnv(
      this.workerEnv(lenderUrl, {
        POLL_INTERVAL_MS: String(options.pollIntervalMs ?? 100),
        WORKER_CONCURRENCY: '50',
        STALLED_INTERVAL_MS: '1000',
        LOCK_DURATION_MS: '2000',
        LENDER_CONNECTIONS: '8',
        LENDER_CONNECT_TIMEOUT_MS: '1000',
        LENDER_HEADERS_TIMEOUT_MS: '1000',
        LENDER_BODY_TIMEOUT_MS: '1000',
        ...options.env,
      }),
    );
    return buildWorker(env, {
      logger: pino({ level: 'silent' }),
      parts: ['submission'],
      health: false,
      ...(options.jobOptions ? { jobOptions: options.jobOptions } : {}),
      ...(options.alsoOnFinalOutcome ? { alsoOnFinalOutcome: options.alsoOnFinalOutcome } : {}),
    });
  }

  /**
   * A webhook delivery worker inside the test process, allowed to call local addresses; with `events`, it
   * records each attempt there.
   */
  startWebhookWorker(
    secrets: PartnerWebhookSecrets,
    events?: EventOutbox,
  ): { worker: Worker; close(): Promise<void> } {
    const sender = new WebhookSender({
      allowPrivateNetworks: true,
      connectTimeoutMs: 1000,
      responseTimeoutMs: 2000,
    });
    const logger = pino({ level: 'silent' });
    const worker = startQueueWorker(
      JOBS.partnerWebhook,
      createWebhookDeliveryProcessor({ store: this.store, secrets, sender, events, now: Date.now, logger }),
      {
        connection: new Redis(this.redisUrl, { maxRetriesPerRequest: null }),
        keyPrefix: this.keyPrefix,
        concurrency: 4,
        logger,
      },
    );
    return {
      worker,
      async close() {
        await worker.close();
        await sender.close();
      },
    };
  }

  /**
   * A complete lead, submitted the way the BFF submits it (submission state, consent, pending outcome, job);
   * with `partner`, as the partner API submits it.
   */
  async submitLead(
    options: {
      deadlineMs?: number;
      jobOptions?: Record<string, unknown>;
      fields?: Record<string, unknown>;
      partner?: PartnerLeadMeta;
      tracking?: Record<string, unknown>;
      /** What differs from the sample consent record (e.g. the borrower's address). */
      consent?: Partial<ConsentRecord>;
    } = {},
  ): Promise<string> {
    const id = await this.store.create(
      { ...SAMPLE_LEAD, ...options.fields },
      { ...SAMPLE_SUBMISSION_CONTEXT.tracking, ...options.tracking },
    );
    const now = Date.now();
    const consent = { ...SAMPLE_CONSENT, at: new Date(now).toISOString(), ...options.consent };
    await this.store.startSubmission(
      id,
      {
        submittedAt: new Date(now).toISOString(),
        deadlineAt: new Date(now + (options.deadlineMs ?? 310_000)).toISOString(),
      },
      // The lead events are the tests' own to append: none come with the submission here.
      submissionEvidence(
        {
          leadId: id,
          consent,
          fields: { ...SAMPLE_LEAD, ...options.fields },
          source: options.partner ? 'partner' : 'funnel',
          submittedAt: new Date(now),
        },
        { retentionMs: 3600_000, withEvents: false },
      ),
      {
        [META.consent]: JSON.stringify(consent),
        ...(options.partner ? { [META.partner]: JSON.stringify(options.partner) } : {}),
      },
    );
    await this.store.setOutcome(id, { outcome: 'pending' });
    await this.enqueue(id, options.jobOptions);
    return id;
  }

  async enqueue(leadId: string, jobOptions: Record<string, unknown> = {}): Promise<void> {
    await enqueue(this.queues, JOBS.submitLead, { leadId }, jobOptions);
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
    await this.queues.close();
    await deleteKeys(this.redis, this.keyPrefix);
    await this.redis.quit();
  }
}
