import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { STEP_ANSWERS, FUNNEL_NOW } from './funnel-answers.js';
import { partnerKey } from './partner-keys.js';
import { keysUnder } from '@funnel/testing/redis-keys';
import {
  startRedisServer,
  startReplicaPair,
  type RedisServer,
  type ReplicaPair,
} from '@funnel/testing/processes';
import { startTestApp, type TestApp } from './test-app.js';

// docs/adr/0018: with REDIS_WAIT_REPLICAS=1, a write the replica did not confirm is never acknowledged nor acted
// on. A primary and a replica of this test (real redis-server processes), the replica stopped and started again.

const ACME = partnerKey('acme', 'aff-acme', 1000);
const LANDING = { amount: 500, loanReason: 'DEBT_CONSOLIDATION', zipCode: '10001' };

function leadBody(): Record<string, unknown> {
  return {
    amount: 1000,
    loanReason: 'MEDICAL',
    ...Object.assign({}, ...STEP_ANSWERS.map(([, answer]) => answer)),
    consent: {
      button: 'REQUEST_CASH',
      at: '2026-11-17T14:58:00Z',
      ip: '203.0.113.45',
      userAgent: 'Mozilla/5.0 (partner borrower)',
      pageUrl: 'https://loans.partner.example/apply',
      trustedFormUrl: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
    },
  };
}

describe('writes confirmed by a replica before they are acknowledged (REDIS_WAIT_REPLICAS=1)', () => {
  let pair: ReplicaPair;
  let primary: RedisServer;
  let replica: RedisServer;
  let onReplica: Redis;
  let t: TestApp;

  beforeAll(async () => {
    pair = await startReplicaPair();
    ({ primary, replica, onReplica } = pair);
    t = await startTestApp({
      now: () => FUNNEL_NOW,
      env: {
        REDIS_URL: primary.url,
        REDIS_WAIT_REPLICAS: '1',
        REDIS_WAIT_TIMEOUT_MS: '300',
        PARTNER_API_KEYS: ACME.entry,
      },
    });
  });
  afterAll(async () => {
    await t?.close();
    await pair?.stop();
  });

  const post = (idempotencyKey: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/partner/leads',
      payload: leadBody(),
      headers: { authorization: `Bearer ${ACME.key}`, 'idempotency-key': idempotencyKey },
    });
  const leadKeys = async (redis: Redis) =>
    (await keysUnder(redis, `${t.env.REDIS_KEY_PREFIX}lead:`)).filter((k) => !k.endsWith(':posting'));

  it('acknowledges a lead only once the replica holds it, refuses with a retryable 503 and acts on nothing while it is gone', async () => {
    const first = await post(`order-${randomBytes(6).toString('hex')}`);
    expect(first.statusCode).toBe(202);
    const firstId = first.json().leadId as string;
    // Acknowledged means on the replica already, not a second later.
    expect(await onReplica.exists(`${t.env.REDIS_KEY_PREFIX}lead:${firstId}`)).toBe(1);
    expect(await t.app.submissionQueue.getJob(firstId)).toBeDefined();
    const jobsBefore = await t.app.submissionQueue.count();

    await replica.kill();
    const key = `order-${randomBytes(6).toString('hex')}`;
    const refused = await post(key);
    expect(refused.statusCode).toBe(503);
    expect(refused.headers['retry-after']).toBe('2');
    expect(refused.json()).toEqual({
      error: { code: 'UNAVAILABLE', message: expect.any(String), requestId: expect.any(String) },
    });
    // Nothing acted on: no job for the lead the primary wrote (the outbox still names it for the reconciler).
    expect(await t.app.submissionQueue.count()).toBe(jobsBefore);
    const funnel = await t.app.inject({ method: 'POST', url: '/api/v1/lead', payload: LANDING });
    expect(funnel.statusCode).toBe(503);
    expect(funnel.json().error.code).toBe('UNAVAILABLE');
    // Readiness says so, rather than sending borrowers to an instance that refuses their answers.
    const notReady = await t.app.inject({ method: 'GET', url: '/readyz' });
    expect(notReady.statusCode).toBe(503);
    expect(notReady.json()).toEqual({ status: 'writes refused: replicas missing' });
    // A replay of the refused request is refused as well: it would acknowledge the same unconfirmed lead.
    expect((await post(key)).statusCode).toBe(503);

    await replica.start();
    await pair.synced();
    // Ready again with no write needed to find out: the check itself probes once the refusal period is over.
    let ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    for (let i = 0; ready.statusCode !== 200 && i < 20; i += 1) {
      await new Promise((r) => setTimeout(r, 250));
      ready = await t.app.inject({ method: 'GET', url: '/readyz' });
    }
    expect(ready.json()).toEqual({ status: 'ready' });
    const leadsBefore = (await leadKeys(t.redis)).length;
    // Retried as a partner does after Retry-After (the connection refuses at once for a moment after a short wait).
    let retried = await post(key);
    for (let i = 0; retried.statusCode === 503 && i < 20; i += 1) {
      await new Promise((r) => setTimeout(r, 250));
      retried = await post(key);
    }
    expect(retried.statusCode).toBe(202);
    expect(retried.headers['idempotent-replayed']).toBe('true');
    const leadId = retried.json().leadId as string;
    // One lead for the key, on both nodes, and left in the outbox for the reconciler to enqueue.
    expect((await leadKeys(t.redis)).length).toBe(leadsBefore);
    expect(await onReplica.exists(`${t.env.REDIS_KEY_PREFIX}lead:${leadId}`)).toBe(1);
    expect(await t.redis.zscore(`${t.env.REDIS_KEY_PREFIX}submission-outbox`, leadId)).not.toBeNull();
    expect((await t.app.inject({ method: 'POST', url: '/api/v1/lead', payload: LANDING })).statusCode).toBe(
      201,
    );
  }, 40_000);
});

describe('a primary refusing writes for want of replicas (min-replicas-to-write 1, no replica)', () => {
  let primary: RedisServer;
  let t: TestApp;

  beforeAll(async () => {
    primary = await startRedisServer({
      args: ['--min-replicas-to-write', '1', '--min-replicas-max-lag', '10'],
    });
    t = await startTestApp({
      now: () => FUNNEL_NOW,
      env: { REDIS_URL: primary.url, PARTNER_API_KEYS: ACME.entry },
    });
  });
  afterAll(async () => {
    await t?.close().catch(() => undefined);
    await primary?.kill();
  });

  it('answers 503 UNAVAILABLE, not 500, whether the refusal came alone (NOREPLICAS) or aborted a MULTI (EXECABORT)', async () => {
    // The funnel's lead creation is a MULTI; the partner post is a script.
    const funnel = await t.app.inject({ method: 'POST', url: '/api/v1/lead', payload: LANDING });
    const partner = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partner/leads',
      payload: leadBody(),
      headers: {
        authorization: `Bearer ${ACME.key}`,
        'idempotency-key': `order-${randomBytes(6).toString('hex')}`,
      },
    });
    for (const response of [funnel, partner]) {
      expect(response.statusCode).toBe(503);
      expect(response.headers['retry-after']).toBe('2');
      expect(response.json()).toEqual({
        error: { code: 'UNAVAILABLE', message: expect.any(String), requestId: expect.any(String) },
      });
    }
    expect(await t.redis.dbsize()).toBe(0);
  });
});
