import { createHash, randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { partnerKey } from './partner-keys.js';
import { CONSENT_VERSION, consentText } from '@funnel/contracts/consent';
import { JOBS } from '@funnel/contracts/jobs';
import { CONSENT_IP_INVALID, WEBHOOK_NOT_ENABLED, WEBHOOK_URL_INVALID } from '@funnel/contracts/partner-api';
import {
  DOB_UNDER_18,
  FIRST_NAME_REQUIRED,
  ROUTING_NUMBER_INVALID,
  SSN_NOT_ISSUABLE,
  WORK_PHONE_SAME_AS_PERSONAL,
  ZIP_CODE_NOT_FOUND,
} from '@funnel/contracts/messages';
import { META } from '@funnel/lead-store/lead-store';
import { keysUnder } from '@funnel/testing/redis-keys';
import { FUNNEL_NOW, STEP_ANSWERS, cookieOf, leadIdOf } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

const ACME = partnerKey('acme', 'aff-acme', 1000);
const GLOBEX = partnerKey('globex', 'aff-globex', 1000);
const SLOW = partnerKey('slowco', 'aff-slow', 3);

/** A complete lead in client names, as a partner posts it: every step's answer plus the landing form. */
function leadBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    amount: 1000,
    loanReason: 'MEDICAL',
    ...Object.assign({}, ...STEP_ANSWERS.map(([, answer]) => answer)),
    consent: {
      button: 'REQUEST_CASH',
      at: '2026-11-17T14:58:00Z',
      ip: '203.0.113.45',
      userAgent: 'Mozilla/5.0 (partner borrower)',
      pageUrl: 'https://loans.partner.example/apply?email=maria%40example.com',
      trustedFormUrl: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
    },
    tracking: { utmSource: 'partner-feed', affiliateId: 'spoofed' },
    ...overrides,
  };
}

describe('partner API', () => {
  let t: TestApp;
  const leadKeys = () => keysUnder(t.redis, `${t.env.REDIS_KEY_PREFIX}lead:`);

  beforeAll(async () => {
    t = await startTestApp({
      now: () => FUNNEL_NOW,
      env: {
        PARTNER_API_KEYS: [ACME.entry, GLOBEX.entry, SLOW.entry].join(','),
        PARTNER_WEBHOOK_SECRETS: `acme:${randomBytes(32).toString('hex')}`,
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  function post(key: string | undefined, payload: unknown, headers: Record<string, string> = {}) {
    return t.app.inject({
      method: 'POST',
      url: '/api/v1/partner/leads',
      payload: payload as object,
      headers: { ...(key ? { authorization: `Bearer ${key}` } : {}), ...headers },
    });
  }

  function status(key: string | undefined, leadId: string) {
    return t.app.inject({
      method: 'GET',
      url: `/api/v1/partner/leads/${leadId}`,
      headers: key ? { authorization: `Bearer ${key}` } : {},
    });
  }

  describe('authentication', () => {
    it.each([
      ['no Authorization header', undefined],
      ['an unknown key', `fpk_${randomBytes(24).toString('base64url')}`],
      ['an empty bearer', ''],
    ])('answers 401 to %s, before looking at the body', async (_, key) => {
      const response = await post(key, { nonsense: true });
      expect(response.statusCode).toBe(401);
      expect(response.json().error.code).toBe('UNAUTHORIZED');
      expect(response.headers['www-authenticate']).toMatch(/^Bearer/);
    });

    it('answers 401 to a key sent as something other than a bearer token', async () => {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/partner/leads',
        payload: leadBody(),
        headers: { authorization: `Basic ${Buffer.from(`acme:${ACME.key}`).toString('base64')}` },
      });
      expect(response.statusCode).toBe(401);
    });

    it('answers 401 to a status request without a key', async () => {
      expect((await status(undefined, 'k3J9xQ2mVb7TzR1pL8wN4A')).statusCode).toBe(401);
    });
  });

  describe('body errors', () => {
    it('answers 400 with the step messages under client field names, storing nothing', async () => {
      const before = (await leadKeys()).length;
      const response = await post(
        ACME.key,
        leadBody({
          firstName: ' ',
          socialSecurityNumber: '666-12-3456',
          routingNumber: '021000022',
          consent: { ...(leadBody().consent as object), ip: 'not-an-ip' },
        }),
      );
      expect(response.statusCode).toBe(400);
      const { error } = response.json();
      expect(error.code).toBe('VALIDATION_FAILED');
      expect(error.fields).toMatchObject({
        firstName: FIRST_NAME_REQUIRED,
        socialSecurityNumber: SSN_NOT_ISSUABLE,
        routingNumber: ROUTING_NUMBER_INVALID,
        consent: CONSENT_IP_INVALID,
      });
      expect((await leadKeys()).length).toBe(before);
    });

    it('names a missing field with its step message', async () => {
      const { firstName: _omitted, ...body } = leadBody();
      const response = await post(ACME.key, body);
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toEqual({ firstName: FIRST_NAME_REQUIRED });
    });

    it('runs the checks that need today and the whole lead: age, work phone, ZIP lookup', async () => {
      const underage = await post(ACME.key, leadBody({ dob: '2010-01-01', employerPhone: '2125550142' }));
      expect(underage.statusCode).toBe(400);
      expect(underage.json().error.fields).toEqual({
        dob: DOB_UNDER_18,
        employerPhone: WORK_PHONE_SAME_AS_PERSONAL,
      });

      const unknownZip = await post(ACME.key, leadBody({ zipCode: '00000' }));
      expect(unknownZip.statusCode).toBe(400);
      expect(unknownZip.json().error.fields).toEqual({ zipCode: ZIP_CODE_NOT_FOUND });
    });

    it('accepts an https webhook only, and only for a partner with a webhook secret', async () => {
      const http = await post(ACME.key, leadBody({ webhookUrl: 'http://hooks.partner.example/x' }));
      expect(http.statusCode).toBe(400);
      expect(http.json().error.fields).toEqual({ webhookUrl: WEBHOOK_URL_INVALID });

      const noSecret = await post(GLOBEX.key, leadBody({ webhookUrl: 'https://hooks.globex.example/x' }));
      expect(noSecret.statusCode).toBe(400);
      expect(noSecret.json().error.fields).toEqual({ webhookUrl: WEBHOOK_NOT_ENABLED });
    });

    it('refuses a malformed Idempotency-Key', async () => {
      const response = await post(ACME.key, leadBody(), { 'idempotency-key': 'has spaces in it' });
      expect(response.statusCode).toBe(400);
      expect(response.json().error.fields).toHaveProperty('idempotency-key');
    });
  });

  describe('an accepted lead', () => {
    it('is stored like a funnel lead, submitted, and queued with its id only', async () => {
      const response = await post(ACME.key, leadBody({ webhookUrl: 'https://hooks.partner.example/funnel' }));
      expect(response.statusCode).toBe(202);
      const { leadId, outcome } = response.json();
      expect(outcome).toBe('pending');
      expect(Buffer.from(leadId, 'base64url').length).toBeGreaterThanOrEqual(16);

      const job = await t.app.submissionQueue.getJob(leadId);
      expect(job?.name).toBe(JOBS.submitLead.name);
      expect(job?.data).toEqual({ leadId });

      const lead = await t.app.leadStore.get(leadId);
      expect(lead?.fields).toMatchObject({
        first_name: 'Maria',
        city: 'New York',
        state: 'NY',
        bank_name: expect.stringMatching(/^Jpmorgan Chase/),
        income_next_date_2: '2026-12-11',
        home_phone: '2125550142',
        ssn: '123456789',
        user_ip: '203.0.113.45',
      });
      expect(lead?.tracking).toMatchObject({
        utmSource: 'partner-feed',
        affiliateId: 'aff-acme',
        trustedFormUrl: expect.stringMatching(/^https:\/\/cert\.trustedform\.com\//),
      });
      expect(lead?.consent).toEqual({
        version: CONSENT_VERSION,
        textSha256: createHash('sha256').update(consentText('REQUEST_CASH')).digest('hex'),
        button: 'REQUEST_CASH',
        at: '2026-11-17T14:58:00.000Z',
        ip: '203.0.113.45',
        userAgent: 'Mozilla/5.0 (partner borrower)',
        pageUrl: 'https://loans.partner.example/apply',
        trustedFormUrl: 'https://cert.trustedform.com/0123456789abcdef0123456789abcdef01234567',
      });
      expect(lead?.partner).toEqual({
        partnerId: 'acme',
        webhookUrl: 'https://hooks.partner.example/funnel',
      });
      expect(lead?.outcome).toMatchObject({ outcome: 'pending', seq: 1 });

      const raw = await t.redis.hgetall(t.app.leadStore.key(leadId));
      expect(raw.ssn).toMatch(/^enc:v1:/);
      expect(raw.bank_account_number).toMatch(/^enc:v1:/);
      expect(raw[META.partner]).toBeDefined();
    });

    it('tells its poster where it stands, and nobody else', async () => {
      const { leadId } = (await post(ACME.key, leadBody())).json();

      const pending = await status(ACME.key, leadId);
      expect(pending.statusCode).toBe(200);
      expect(pending.json()).toEqual({ leadId, outcome: 'pending' });

      const other = await status(GLOBEX.key, leadId);
      expect(other.statusCode).toBe(404);
      expect(other.json().error.code).toBe('NOT_FOUND');
      expect((await status(ACME.key, 'k3J9xQ2mVb7TzR1pL8wN4A')).statusCode).toBe(404);

      const decided = await t.app.leadStore.setOutcome(leadId, {
        outcome: 'sold',
        redirectUrl: 'https://lender.example/offer/1',
      });
      expect((await status(ACME.key, leadId)).json()).toEqual({
        leadId,
        outcome: 'sold',
        redirectUrl: 'https://lender.example/offer/1',
        decidedAt: decided?.at,
      });
    });

    it('is not readable through the partner API when it came through the funnel', async () => {
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/lead',
        payload: { amount: 500, loanReason: 'MEDICAL', zipCode: '10001' },
      });
      const response = await status(ACME.key, leadIdOf(cookieOf(created)));
      expect(response.statusCode).toBe(404);
    });
  });

  describe('Idempotency-Key', () => {
    it('answers a repeat within 24 h with the first lead and creates nothing', async () => {
      const key = `order-${randomBytes(8).toString('hex')}`;
      const first = await post(ACME.key, leadBody(), { 'idempotency-key': key });
      expect(first.statusCode).toBe(202);
      const leadsAfterFirst = (await leadKeys()).length;
      const jobsAfterFirst = await t.app.submissionQueue.count();

      const again = await post(ACME.key, leadBody(), { 'idempotency-key': key });
      expect(again.statusCode).toBe(202);
      expect(again.json()).toEqual(first.json());
      expect(again.headers['idempotent-replayed']).toBe('true');
      expect((await leadKeys()).length).toBe(leadsAfterFirst);
      expect(await t.app.submissionQueue.count()).toBe(jobsAfterFirst);

      const stored = await keysUnder(t.redis, `${t.env.REDIS_KEY_PREFIX}partner-idempotency:`);
      expect(stored.join()).not.toContain(key);
      const ttl = await t.redis.pttl(stored.find((k) => k.includes(':acme:'))!);
      expect(ttl).toBeGreaterThan(23 * 3600_000);
    });

    it('refuses the same key with a different body (422 IDEMPOTENCY_KEY_REUSED), and replays it in any key order', async () => {
      const key = `bound-${randomBytes(8).toString('hex')}`;
      const first = await post(ACME.key, leadBody(), { 'idempotency-key': key });
      expect(first.statusCode).toBe(202);
      const leads = (await leadKeys()).length;

      const other = await post(ACME.key, leadBody({ amount: 2000, email: 'someone.else@example.com' }), {
        'idempotency-key': key,
      });
      expect(other.statusCode).toBe(422);
      expect(other.json()).toEqual({
        error: {
          requestId: expect.any(String),
          code: 'IDEMPOTENCY_KEY_REUSED',
          message:
            'This Idempotency-Key was already used with a different request body. Send a new key for a new request.',
        },
      });
      expect(other.body).not.toContain(first.json().leadId);
      expect((await leadKeys()).length).toBe(leads);

      // The same body with its keys in another order is the same request.
      const reordered = Object.fromEntries(Object.entries(leadBody()).reverse());
      const again = await post(ACME.key, reordered, { 'idempotency-key': key });
      expect(again.statusCode).toBe(202);
      expect(again.json()).toEqual(first.json());
      expect(again.headers['idempotent-replayed']).toBe('true');
    });

    it('is scoped to the partner: another partner with the same key gets its own lead', async () => {
      const key = `shared-${randomBytes(8).toString('hex')}`;
      const acme = await post(ACME.key, leadBody(), { 'idempotency-key': key });
      const globex = await post(GLOBEX.key, leadBody(), { 'idempotency-key': key });
      expect(globex.statusCode).toBe(202);
      expect(globex.json().leadId).not.toBe(acme.json().leadId);
    });

    it('is freed by a refused request, so the corrected request can use it', async () => {
      const key = `retry-${randomBytes(8).toString('hex')}`;
      const refused = await post(ACME.key, leadBody({ zipCode: '00000' }), { 'idempotency-key': key });
      expect(refused.statusCode).toBe(400);
      const corrected = await post(ACME.key, leadBody(), { 'idempotency-key': key });
      expect(corrected.statusCode).toBe(202);
      expect(corrected.headers['idempotent-replayed']).toBeUndefined();
    });
  });

  describe('Idempotency-Key under failure', () => {
    const keyName = (partnerId: string, key: string) =>
      `${t.env.REDIS_KEY_PREFIX}partner-idempotency:${partnerId}:${createHash('sha256').update(key).digest('base64url')}`;

    it('stays bound to the lead a failed request created: the retry gets that lead, never a second one', async () => {
      const key = `crash-${randomBytes(8).toString('hex')}`;
      const queue = t.app.submissionQueue;
      const add = queue.add.bind(queue);
      // The queue write fails after the lead is stored (as when Redis goes away between the two).
      queue.add = () => Promise.reject(new Error('Connection is closed.'));
      let failed;
      try {
        failed = await post(ACME.key, leadBody(), { 'idempotency-key': key });
      } finally {
        queue.add = add;
      }
      expect(failed.statusCode).toBeGreaterThanOrEqual(500);
      const leadId = await t.redis.get(keyName('acme', key));
      expect(leadId).toMatch(/^[\w-]{22}$/);
      // Submitted with no job yet: the outbox holds it for the reconciler.
      expect(await t.redis.zscore(`${t.env.REDIS_KEY_PREFIX}submission-outbox`, leadId!)).not.toBeNull();

      const retry = await post(ACME.key, leadBody(), { 'idempotency-key': key });
      expect(retry.statusCode).toBe(202);
      expect(retry.json().leadId).toBe(leadId);
      expect(retry.headers['idempotent-replayed']).toBe('true');
      const leads = await leadKeys();
      expect(leads.filter((k) => k.endsWith(leadId!))).toHaveLength(1);
    });

    it('lets a retry take over a claim its dead request left, after seconds rather than a minute', async () => {
      const key = `dead-${randomBytes(8).toString('hex')}`;
      const fresh = `~in-progress:${Date.now()}:${'a'.repeat(22)}`;
      await t.redis.set(keyName('acme', key), fresh, 'PX', 60_000);
      const busy = await post(ACME.key, leadBody(), { 'idempotency-key': key });
      expect(busy.statusCode).toBe(409);

      const stale = `~in-progress:${Date.now() - 4000}:${'b'.repeat(22)}`;
      await t.redis.set(keyName('acme', key), stale, 'PX', 60_000);
      const taken = await post(ACME.key, leadBody(), { 'idempotency-key': key });
      expect(taken.statusCode).toBe(202);
      expect(await t.redis.get(keyName('acme', key))).toBe(taken.json().leadId);
      expect(await t.redis.exists(`${t.env.REDIS_KEY_PREFIX}lead:${'b'.repeat(22)}`)).toBe(0);
    });
  });

  describe('rate limit', () => {
    it("counts each partner's requests across the API against its key's limit", async () => {
      const responses = [];
      for (let i = 0; i < 2; i++) responses.push(await post(SLOW.key, leadBody()));
      responses.push(await status(SLOW.key, 'k3J9xQ2mVb7TzR1pL8wN4A'));
      expect(responses.map((r) => r.statusCode)).toEqual([202, 202, 404]);

      const limited = await post(SLOW.key, leadBody());
      expect(limited.statusCode).toBe(429);
      expect(limited.json().error.code).toBe('RATE_LIMITED');
      expect(limited.headers['retry-after']).toBeDefined();

      // Another partner's budget is its own.
      expect((await post(GLOBEX.key, leadBody())).statusCode).toBe(202);
    });
  });
});

describe('partner API with http webhooks allowed (local runs and tests)', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({
      now: () => FUNNEL_NOW,
      env: {
        PARTNER_API_KEYS: ACME.entry,
        PARTNER_WEBHOOK_SECRETS: `acme:${randomBytes(32).toString('hex')}`,
        PARTNER_WEBHOOK_INSECURE: 'true',
      },
    });
  });
  afterAll(async () => {
    await t.close();
  });

  it('accepts an http webhook address', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/partner/leads',
      payload: leadBody({ webhookUrl: 'http://127.0.0.1:9/hook' }),
      headers: { authorization: `Bearer ${ACME.key}` },
    });
    expect(response.statusCode).toBe(202);
    expect((await t.app.leadStore.getPartner(response.json().leadId))?.webhookUrl).toBe(
      'http://127.0.0.1:9/hook',
    );
  });
});
