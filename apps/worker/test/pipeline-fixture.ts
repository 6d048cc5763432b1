import { randomBytes } from 'node:crypto';
import { Queue, type JobsOptions, type Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { inject } from 'vitest';
import type {} from '@funnel/testing/redis-global-setup';
import { CONSENT_VERSION } from '@funnel/contracts/consent';
import { JOBS, SUBMIT_LEAD_JOB_OPTIONS, queuePrefix } from '@funnel/contracts/jobs';
import type { LeadOutcome } from '@funnel/contracts/lead-outcome';
import type { PartnerLeadMeta } from '@funnel/contracts/partner-api';
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
import type { PartnerWebhookSecrets } from '@funnel/lead-store/partner-config';
import { LenderClient } from '../src/lender-client.js';
import { createPartnerWebhookNotifier } from '../src/partner-webhook-notifier.js';
import { createSubmissionWorker } from '../src/submission-worker.js';
import { createWebhookDeliveryWorker } from '../src/webhook-delivery-worker.js';
import { WebhookSender } from '../src/webhook-sender.js';

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
  readonly suppressionSecret = randomBytes(32).toString('hex');
  readonly redis: Redis;
  readonly store: LeadStore;
  /** The field-encryption key ring the worker would be given (`encryptionKey`). */
  readonly cipher: FieldCipher;
  readonly queue: Queue;
  readonly webhookQueue: Queue;

  constructor(readonly redisUrl: string = inject('redisUrl')) {
    this.redis = new Redis(redisUrl, { maxRetriesPerRequest: null });
    // Fault tests restart Redis under this connection; it reconnects by itself.
    this.redis.on('error', () => {});
    const [key] = this.encryptionKey.split(':').slice(1);
    this.cipher = new FieldCipher([{ id: 't1', key: Buffer.from(key!, 'base64') }]);
    this.store = new LeadStore(this.redis, this.cipher, {
      keyPrefix: this.keyPrefix,
      ttlMs: 3600_000,
    });
    this.queue = new Queue(JOBS.submitLead.queue, {
      connection: this.redis,
      prefix: queuePrefix(this.keyPrefix),
    });
    this.webhookQueue = new Queue(JOBS.partnerWebhook.queue, {
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
      SUPPRESSION_HASH_SECRET: this.suppressionSecret,
      LENDER_NETWORK_URL: lenderUrl,
      POLL_INTERVAL_MS: '100',
      LOG_LEVEL: 'warn',
      ...extra,
    };
  }

  /** A worker inside the test process, polling fast. */
  startWorker(
    lenderUrl: string,
    options: {
      pollIntervalMs?: number;
      webhookJobOptions?: JobsOptions;
      /** More to do once an outcome is final (the retention follow-ups of follow-up-fixture.ts). */
      alsoOnFinalOutcome?: (leadId: string) => Promise<void>;
    } = {},
  ): { worker: Worker; close(): Promise<void> } {
    const notifyPartner = createPartnerWebhookNotifier({
      store: this.store,
      queue: this.webhookQueue,
      ...(options.webhookJobOptions ? { jobOptions: options.webhookJobOptions } : {}),
    });
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
        postClaimMs: 3000,
        onFinalOutcome: async (leadId) => {
          await notifyPartner(leadId);
          await options.alsoOnFinalOutcome?.(leadId);
        },
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

  /** A webhook delivery worker inside the test process, allowed to call local addresses. */
  startWebhookWorker(secrets: PartnerWebhookSecrets): { worker: Worker; close(): Promise<void> } {
    const sender = new WebhookSender({
      allowPrivateNetworks: true,
      connectTimeoutMs: 1000,
      responseTimeoutMs: 2000,
    });
    const worker = createWebhookDeliveryWorker(
      { store: this.store, secrets, sender, now: Date.now, logger: pino({ level: 'silent' }) },
      {
        connection: new Redis(this.redisUrl, { maxRetriesPerRequest: null }),
        keyPrefix: this.keyPrefix,
        concurrency: 4,
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
    } = {},
  ): Promise<string> {
    const id = await this.store.create(
      { ...SAMPLE_LEAD, ...options.fields },
      { ...SAMPLE_SUBMISSION_CONTEXT.tracking, ...options.tracking },
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
    await this.webhookQueue.close();
    await deleteKeys(this.redis, this.keyPrefix);
    await this.redis.quit();
  }
}
