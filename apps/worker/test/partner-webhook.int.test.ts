import { createHash, randomBytes } from 'node:crypto';
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { pino } from 'pino';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { toClientFields } from '@funnel/contracts/fields';
import { PartnerWebhookPayloadSchema } from '@funnel/contracts/partner-api';
import { addDays } from '@funnel/contracts/rules/calendar-date';
import { nextBankBusinessDay } from '@funnel/contracts/rules/pay-dates';
import { SAMPLE_LEAD } from '@funnel/contracts/sample-lead';
import { Webhook, WebhookVerificationError } from 'standardwebhooks';
import { verifyWebhookSignature } from '@funnel/server-runtime/webhook-signature';
import { EventOutbox } from '@funnel/lead-store/event-outbox';
import { PartnerWebhookSecretsSchema } from '@funnel/lead-store/partner-config';
import { freePort, startApp, type AppProcess } from '@funnel/testing/processes';
import { createWebhookDeliveryProcessor } from '../src/final-outcome/webhook-delivery-processor.js';
import { WebhookAddressRefusedError, WebhookSender } from '../src/final-outcome/webhook-sender.js';
import { Pipeline, startSandbox } from './pipeline-fixture.js';

/** Standard Webhooks secrets, as `scripts/partner-key.mjs` issues them. */
const SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const OTHER_SECRET = `whsec_${randomBytes(32).toString('base64')}`;
const FAST_BACKOFF = { backoff: { type: 'exponential', delay: 100 } } as const;

interface Delivery {
  headers: IncomingHttpHeaders;
  body: string;
}

/** A partner's webhook endpoint: a real HTTP server that records every delivery and answers from a script. */
async function startReceiver(answers: number[]): Promise<{
  url: string;
  deliveries: Delivery[];
  close(): Promise<void>;
}> {
  const deliveries: Delivery[] = [];
  const server: Server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (body += chunk));
    request.on('end', () => {
      deliveries.push({ headers: request.headers, body });
      response.statusCode = answers[deliveries.length - 1] ?? 200;
      response.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/funnel-webhook`,
    deliveries,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Every personal value of the sample lead, as it could appear in a body. */
const PERSONAL_VALUES = Object.values(SAMPLE_LEAD)
  .filter((value): value is string => typeof value === 'string' && value.length >= 4)
  .filter((value) => !['DEBT_CONSOLIDATION', 'EMPLOYMENT', 'BIWEEKLY', 'CHECKING'].includes(value));

describe('partner webhooks', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let pipeline: Pipeline;
  let worker: Awaited<ReturnType<Pipeline['startWorker']>>;
  let webhooks: ReturnType<Pipeline['startWebhookWorker']>;
  let events: EventOutbox;

  beforeAll(async () => {
    sandbox = await startSandbox();
    pipeline = new Pipeline();
    worker = await pipeline.startWorker(sandbox.url, { jobOptions: FAST_BACKOFF });
    events = new EventOutbox(pipeline.redis, { keyPrefix: pipeline.keyPrefix });
    webhooks = pipeline.startWebhookWorker(PartnerWebhookSecretsSchema.parse(`acme:${SECRET}`), events);
  });
  afterAll(async () => {
    await webhooks.close();
    await worker.close();
    await pipeline.close();
    await sandbox.process.stop();
  });
  beforeEach(async () => {
    await sandbox.reset();
    await sandbox.configure({ soldShare: 1, pendingShare: 0 });
  });

  it('retries a delivery answered 500 and succeeds on the next, each signed and free of personal data', async () => {
    const receiver = await startReceiver([500, 204]);
    try {
      const leadId = await pipeline.submitLead({ partner: { partnerId: 'acme', webhookUrl: receiver.url } });
      const outcome = await pipeline.finalOutcome(leadId);
      expect(outcome.outcome).toBe('sold');

      await expect.poll(() => receiver.deliveries.length, { timeout: 10_000 }).toBe(2);
      const job = await pipeline.webhookQueue.getJob(leadId);
      await expect.poll(async () => (await job?.getState()) ?? 'gone', { timeout: 5000 }).toBe('completed');
      expect(job?.data).toEqual({ leadId });

      // Standard Webhooks: any of its libraries verifies a delivery with the secret we issued.
      const ids = new Set<string>();
      for (const delivery of receiver.deliveries) {
        const standard = {
          'webhook-id': String(delivery.headers['webhook-id']),
          'webhook-timestamp': String(delivery.headers['webhook-timestamp']),
          'webhook-signature': String(delivery.headers['webhook-signature']),
        };
        ids.add(standard['webhook-id']);
        expect(standard['webhook-signature']).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
        expect(new Webhook(SECRET).verify(delivery.body, standard)).toEqual(JSON.parse(delivery.body));
        expect(() => new Webhook(OTHER_SECRET).verify(delivery.body, standard)).toThrow(
          WebhookVerificationError,
        );
        expect(() => new Webhook(SECRET).verify(delivery.body.replace('sold', 'rejected'), standard)).toThrow(
          WebhookVerificationError,
        );
      }
      // One event, retried: the same webhook-id, so a receiver can drop the repeat.
      expect([...ids]).toEqual([`msg_${leadId}`]);

      // The older X-Funnel-Signature still comes, for its deprecation period (CHANGELOG.md).
      for (const delivery of receiver.deliveries) {
        const header = delivery.headers['x-funnel-signature'] as string;
        expect(header).toMatch(/^t=\d+,v1=[a-f0-9]{64}$/);
        expect(verifyWebhookSignature(SECRET, header, delivery.body, 300)).toBe(true);
        expect(verifyWebhookSignature(randomBytes(32).toString('hex'), header, delivery.body, 300)).toBe(
          false,
        );
        expect(verifyWebhookSignature(SECRET, header, delivery.body.replace('sold', 'rejected'), 300)).toBe(
          false,
        );
        expect(delivery.headers['content-type']).toBe('application/json');

        expect(JSON.parse(delivery.body)).toEqual({
          leadId,
          outcome: 'sold',
          redirectUrl: outcome.redirectUrl,
          decidedAt: outcome.at,
        });
        for (const value of PERSONAL_VALUES) expect(delivery.body).not.toContain(value);
      }
      expect(
        PartnerWebhookPayloadSchema.strict().safeParse(JSON.parse(receiver.deliveries[1]!.body)).success,
      ).toBe(true);

      // Each attempt is recorded for the lead's journey: the host (not the path), the answer, the retry.
      const attempts = (await pipeline.redis.xrange(events.key, '-', '+'))
        .map(([, fields]) => JSON.parse(fields[1]!))
        .filter((e) => e.leadId === leadId && e.type === 'delivery_attempt');
      expect(attempts).toEqual([
        expect.objectContaining({
          channel: 'partner_webhook',
          target: 'acme',
          host: new URL(receiver.url).host,
          event: 'sold',
          attempt: 1,
          result: 'failed',
          status: 500,
          nextAttemptAt: expect.any(String),
          gaveUp: false,
        }),
        expect.objectContaining({ attempt: 2, result: 'delivered', status: 204 }),
      ]);
    } finally {
      await receiver.close();
    }
  });

  it('sends nothing for a lead without a webhook, or one that came through the funnel', async () => {
    const receiver = await startReceiver([]);
    try {
      const partnerLead = await pipeline.submitLead({ partner: { partnerId: 'acme' } });
      const funnelLead = await pipeline.submitLead();
      await Promise.all([pipeline.finalOutcome(partnerLead), pipeline.finalOutcome(funnelLead)]);
      expect(await pipeline.webhookQueue.getJob(partnerLead)).toBeUndefined();
      expect(await pipeline.webhookQueue.getJob(funnelLead)).toBeUndefined();
    } finally {
      await receiver.close();
    }
  });
});

describe('webhook addresses in production', () => {
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let sender: WebhookSender;
  beforeEach(async () => {
    receiver = await startReceiver([]);
    sender = new WebhookSender({
      allowPrivateNetworks: false,
      connectTimeoutMs: 1000,
      responseTimeoutMs: 1000,
    });
  });
  afterEach(async () => {
    await sender.close();
    await receiver.close();
  });

  it('never calls a loopback or private address, by IP or by name', async () => {
    await expect(sender.post(receiver.url, '{}', {})).rejects.toBeInstanceOf(WebhookAddressRefusedError);
    await expect(sender.post('https://[::1]:1/hook', '{}', {})).rejects.toBeInstanceOf(
      WebhookAddressRefusedError,
    );
    await expect(sender.post('https://10.1.2.3/hook', '{}', {})).rejects.toBeInstanceOf(
      WebhookAddressRefusedError,
    );
    const port = new URL(receiver.url).port;
    await expect(sender.post(`https://localhost:${port}/hook`, '{}', {})).rejects.toMatchObject({
      code: 'ENOTPUBLIC',
    });
    expect(receiver.deliveries).toHaveLength(0);
  });

  it('gives up on such an address at once instead of retrying', async () => {
    const processor = createWebhookDeliveryProcessor({
      store: {
        getPartner: async () => ({ partnerId: 'acme', webhookUrl: receiver.url }),
        getOutcome: async () => ({ outcome: 'rejected', seq: 2, at: new Date().toISOString() }),
      },
      secrets: PartnerWebhookSecretsSchema.parse(`acme:${SECRET}`),
      sender,
      now: Date.now,
      logger: pino({ level: 'silent' }),
    });
    const job = { data: { leadId: 'k3J9xQ2mVb7TzR1pL8wN4A' }, id: '1', attemptsMade: 0 };
    await expect(processor(job as never)).rejects.toMatchObject({ name: 'UnrecoverableError' });
  });
});

describe('partner API end to end: BFF, worker and lender sandbox as they run', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let pipeline: Pipeline;
  let worker: Awaited<ReturnType<Pipeline['startWorker']>>;
  let webhooks: ReturnType<Pipeline['startWebhookWorker']>;
  let bff: AppProcess;
  let bffUrl: string;
  const apiKey = `fpk_${randomBytes(24).toString('base64url')}`;

  beforeAll(async () => {
    sandbox = await startSandbox();
    await sandbox.configure({ soldShare: 1, pendingShare: 0 });
    pipeline = new Pipeline();
    worker = await pipeline.startWorker(sandbox.url, { jobOptions: FAST_BACKOFF });
    webhooks = pipeline.startWebhookWorker(PartnerWebhookSecretsSchema.parse(`acme:${SECRET}`));
    const port = await freePort();
    bffUrl = `http://127.0.0.1:${port}`;
    bff = await startApp({
      entry: 'apps/bff/src/server.ts',
      env: {
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        REDIS_URL: pipeline.redisUrl,
        REDIS_KEY_PREFIX: pipeline.keyPrefix,
        FIELD_ENCRYPTION_KEYS: pipeline.encryptionKey,
        COOKIE_SECRETS: randomBytes(32).toString('hex'),
        SUPPRESSION_HASH_SECRET: randomBytes(32).toString('hex'),
        PARTNER_API_KEYS: `acme:aff-acme:${createHash('sha256').update(apiKey).digest('hex')}:60`,
        PARTNER_WEBHOOK_SECRETS: `acme:${SECRET}`,
        PARTNER_WEBHOOK_INSECURE: 'true',
      },
      readyUrl: `${bffUrl}/healthz`,
    });
  });
  afterAll(async () => {
    await bff?.stop();
    await webhooks.close();
    await worker.close();
    await pipeline.close();
    await sandbox.process.stop();
  });

  it('posts a lead, reads its outcome and receives the signed webhook', async () => {
    const receiver = await startReceiver([]);
    try {
      const today = new Date().toISOString().slice(0, 10);
      const { city: _city, state: _state, incomeNextDate2: _next, ...answers } = toClientFields(SAMPLE_LEAD);
      const posted = await fetch(`${bffUrl}/api/v1/partner/leads`, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${apiKey}`,
          'content-type': 'application/json',
          'idempotency-key': 'order-1',
        },
        body: JSON.stringify({
          ...answers,
          incomeNextDate1: nextBankBusinessDay(addDays(today, 7)),
          consent: {
            at: new Date().toISOString(),
            ip: '203.0.113.45',
            userAgent: 'Mozilla/5.0 (end-to-end)',
            pageUrl: 'https://loans.partner.example/apply',
          },
          webhookUrl: receiver.url,
        }),
      });
      expect(posted.status, await posted.clone().text()).toBe(202);
      const { leadId } = (await posted.json()) as { leadId: string };

      await expect.poll(() => receiver.deliveries.length, { timeout: 15_000 }).toBe(1);
      const [delivery] = receiver.deliveries;
      expect(
        verifyWebhookSignature(SECRET, delivery!.headers['x-funnel-signature'] as string, delivery!.body),
      ).toBe(true);
      const payload = JSON.parse(delivery!.body);
      expect(payload).toMatchObject({ leadId, outcome: 'sold' });

      const status = await fetch(`${bffUrl}/api/v1/partner/leads/${leadId}`, {
        headers: { authorization: `Bearer ${apiKey}` },
      });
      expect(await status.json()).toEqual({
        leadId,
        outcome: 'sold',
        redirectUrl: payload.redirectUrl,
        decidedAt: payload.decidedAt,
      });
      const upstream = await sandbox.lead(leadId);
      expect(upstream.payload).toMatchObject({ partnerLeadId: leadId, 'tPar[affiliateId]': 'aff-acme' });
    } finally {
      await receiver.close();
    }
  });
});
