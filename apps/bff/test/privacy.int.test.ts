import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { DO_NOT_SELL_CONFIRMATION, UNSUBSCRIBE_CONFIRMATION } from '@funnel/contracts/privacy';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { openPrivacyRequest } from '@funnel/lead-store/suppression-list';
import { SESSION_COOKIE } from '../src/plugins/lead-session.js';
import { startTestApp, type TestApp } from './test-app.js';

const UNSUBSCRIBE = { email: ' Maria@Example.COM ', phone: '(212)-555-0142', reason: 'SPAM' };

const DO_NOT_SELL = {
  stateResidencyPrompt: 'CA',
  firstName: 'Ann',
  middleName: '',
  lastName: 'Lee',
  email: 'ann.lee@example.com',
  phone: '(646)-555-0199',
  country: 'United States',
  zip: '90210',
  state: 'CA',
  address: '1 Rodeo Dr',
  city: 'Beverly Hills',
};

const LANDING = { amount: 500, loanReason: 'DEBT_CONSOLIDATION', zipCode: '10001' };
const GPC = { 'sec-gpc': '1' };

interface StreamEntry {
  requestId: string;
  type: string;
  source: string;
  at: string;
  leadId?: string;
  request: string;
}

function toEntry(fields: string[]): StreamEntry {
  const entry: Record<string, string> = {};
  for (let i = 0; i < fields.length; i += 2) entry[fields[i]!] = fields[i + 1]!;
  return entry as unknown as StreamEntry;
}

function session(response: { cookies: Array<{ name: string; value: string }> }) {
  const cookie = response.cookies.find((c) => c.name === SESSION_COOKIE);
  if (!cookie) throw new Error('no session cookie set');
  return { cookie: `${SESSION_COOKIE}=${cookie.value}`, leadId: cookie.value.split('.')[0]! };
}

describe('privacy requests on real Redis', () => {
  let t: TestApp;
  let streamKey: string;

  beforeAll(async () => {
    t = await startTestApp();
    streamKey = `${t.env.REDIS_KEY_PREFIX}privacy-requests`;
  });
  afterAll(async () => {
    await t.close();
  });

  /** The stream's entries, each request opened with the app's key ring (as JSON, as it was sent). */
  async function entries(): Promise<StreamEntry[]> {
    const cipher = new FieldCipher(t.env.FIELD_ENCRYPTION_KEYS);
    return (await t.redis.xrange(streamKey, '-', '+')).map(([, fields]) => {
      const entry = toEntry(fields);
      return { ...entry, request: JSON.stringify(openPrivacyRequest(cipher, entry)) };
    });
  }

  it('keeps each request sealed in the Redis stream: no name, email, phone or address in clear', async () => {
    const before = (await t.redis.xrange(streamKey, '-', '+')).length;
    const payloads = [
      [
        '/api/v1/privacy/unsubscribe',
        { email: 'sealed.person@example.com', phone: '3125550177', reason: 'SPAM' },
      ],
      [
        '/api/v1/privacy/do-not-sell',
        { ...DO_NOT_SELL, email: 'sealed.person@example.com', phone: '3125550177' },
      ],
    ] as const;
    for (const [url, payload] of payloads) {
      expect((await t.app.inject({ method: 'POST', url, payload })).statusCode).toBe(200);
    }
    const raw = (await t.redis.xrange(streamKey, '-', '+')).slice(before);
    expect(raw).toHaveLength(2);
    expect(JSON.stringify(raw)).not.toMatch(/sealed\.person|example\.com|3125550177|Rodeo Dr|Beverly Hills/);
    const opened = (await entries()).slice(before).map((entry) => JSON.parse(entry.request));
    expect(opened).toEqual([
      { email: 'sealed.person@example.com', phone: '3125550177', reason: 'SPAM' },
      { ...DO_NOT_SELL, middleName: undefined, email: 'sealed.person@example.com', phone: '3125550177' },
    ]);
    await t.redis.del(streamKey);
  });

  async function createLead(headers: Record<string, string> = {}) {
    const response = await t.app.inject({ method: 'POST', url: '/api/v1/lead', payload: LANDING, headers });
    expect(response.statusCode).toBe(201);
    return session(response);
  }

  it('stores an unsubscribe request and suppresses the normalized email and phone', async () => {
    const requestedAt = new Date().toISOString();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/unsubscribe',
      payload: UNSUBSCRIBE,
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 200, message: UNSUBSCRIBE_CONFIRMATION });
    expect(response.json().message).toMatch(/48 hours/);

    const stored = await entries();
    expect(stored).toHaveLength(1);
    expect(stored[0]).toEqual({
      requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'unsubscribe',
      source: 'form',
      at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
      request: JSON.stringify({ email: 'Maria@Example.COM', phone: '2125550142', reason: 'SPAM' }),
    });
    // Stamped when it was received: between the readings taken around the request.
    expect([requestedAt, stored[0]!.at, new Date().toISOString()].sort()[1]).toBe(stored[0]!.at);

    const suppression = t.app.suppressionList;
    expect(await suppression.isSuppressed({ email: 'maria@example.com' })).toEqual({
      unsubscribed: true,
      doNotSell: false,
    });
    expect(await suppression.isSuppressed({ email: ' MARIA@example.com ' })).toMatchObject({
      unsubscribed: true,
    });
    expect(await suppression.isSuppressed({ phone: '2125550142' })).toMatchObject({ unsubscribed: true });
    expect(await suppression.isSuppressed({ phone: '(212)-555-0142' })).toMatchObject({ unsubscribed: true });
    expect(await suppression.isSuppressed({ email: 'other@example.com', phone: '6465550100' })).toEqual({
      unsubscribed: false,
      doNotSell: false,
    });
    // The index holds the contact (by keyed hash) that was just suppressed: the read is of the right hash.
    const hashes = await t.redis.hgetall(`${t.env.REDIS_KEY_PREFIX}suppression`);
    expect(Object.keys(hashes).length).toBeGreaterThanOrEqual(2);
    expect(JSON.stringify(hashes)).not.toMatch(/maria|2125550142/i);
  });

  it('answers a repeat the same and stores nothing new', async () => {
    const before = await entries();
    const repeat = await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/unsubscribe',
      payload: { ...UNSUBSCRIBE, email: 'maria@example.com', phone: '2125550142' },
    });
    expect(repeat.statusCode).toBe(200);
    expect(repeat.json()).toEqual({ status: 200, message: UNSUBSCRIBE_CONFIRMATION });
    expect(await entries()).toEqual(before);
  });

  it("stores a do-not-sell request and flags the visitor's own lead", async () => {
    const { cookie, leadId } = await createLead();
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/do-not-sell',
      payload: DO_NOT_SELL,
      headers: { cookie },
    });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ status: 200, message: DO_NOT_SELL_CONFIRMATION });

    const last = (await entries()).at(-1)!;
    expect(last).toMatchObject({ type: 'do-not-sell', source: 'form', leadId });
    expect(JSON.parse(last.request)).toEqual({ ...DO_NOT_SELL, middleName: undefined, phone: '6465550199' });
    expect(await t.app.suppressionList.isSuppressed({ email: 'Ann.Lee@example.com' })).toEqual({
      unsubscribed: false,
      doNotSell: true,
    });
    expect(await t.app.suppressionList.isSuppressed({ phone: '646-555-0199' })).toMatchObject({
      doNotSell: true,
    });
    expect((await t.app.leadStore.get(leadId))?.doNotSell).toEqual({
      source: 'do-not-sell-request',
      at: expect.any(String),
    });

    const count = (await entries()).length;
    const repeat = await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/do-not-sell',
      payload: DO_NOT_SELL,
    });
    expect(repeat.json()).toEqual(response.json());
    expect(await entries()).toHaveLength(count);
  });

  it('stores a do-not-sell request without a session and flags no lead', async () => {
    const before = (await entries()).length;
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/do-not-sell',
      payload: { ...DO_NOT_SELL, email: 'bo@example.com', phone: '3125550123', stateResidencyPrompt: 'NONE' },
    });
    expect(response.statusCode).toBe(200);
    const stored = await entries();
    expect(stored).toHaveLength(before + 1);
    expect(stored.at(-1)).not.toHaveProperty('leadId');
  });

  it('refuses bad input with 400, the exact messages, and stores nothing', async () => {
    const streamBefore = await entries();
    const indexBefore = await t.redis.hgetall(`${t.env.REDIS_KEY_PREFIX}suppression`);

    const emptyUnsubscribe = await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/unsubscribe',
      payload: {},
    });
    expect(emptyUnsubscribe.statusCode).toBe(400);
    expect(emptyUnsubscribe.json()).toEqual({
      error: {
        requestId: expect.any(String),
        code: 'VALIDATION_FAILED',
        message: 'invalid email address',
        fields: {
          email: 'invalid email address',
          phone: 'Phone number is required!',
          reason: 'Unsubscribe reason is required!',
        },
      },
    });

    const badUnsubscribe = await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/unsubscribe',
      payload: { email: 'maria@', phone: '(212)-555-01__', reason: 'Other' },
    });
    expect(badUnsubscribe.statusCode).toBe(400);
    expect(badUnsubscribe.json().error.fields).toEqual({
      email: 'invalid email address',
      phone: 'Phone number must be 10 characters long',
      reason: 'Please select an unsubscribe reason from the list',
    });

    const emptyDoNotSell = await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/do-not-sell',
      payload: {},
    });
    expect(emptyDoNotSell.statusCode).toBe(400);
    expect(emptyDoNotSell.json().error.fields).toEqual({
      stateResidencyPrompt: 'Please select an answer!',
      firstName: 'First Name is required!',
      lastName: 'Last Name is required!',
      email: 'Email is required!',
      phone: 'Phone number is required!',
      zip: 'Zip code must be 5 characters long',
      state: 'State is required!',
      address: 'Address must be 5 characters long',
      city: 'City is required!',
    });

    const badDoNotSell = await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/do-not-sell',
      payload: { ...DO_NOT_SELL, zip: '9021', address: '1 Rd', phone: '(112)-555-0199' },
    });
    expect(badDoNotSell.statusCode).toBe(400);
    expect(badDoNotSell.json().error.fields).toEqual({
      zip: 'Zip code must be 5 characters long',
      address: 'Address must be 5 characters long',
      phone: 'The phone number is not correct!',
    });

    expect(await entries()).toEqual(streamBefore);
    expect(await t.redis.hgetall(`${t.env.REDIS_KEY_PREFIX}suppression`)).toEqual(indexBefore);
  });

  it('honours Sec-GPC: 1 on lead creation as a do-not-sell for that lead, recorded once', async () => {
    const before = (await entries()).length;
    const { cookie, leadId } = await createLead(GPC);
    expect((await t.app.leadStore.get(leadId))?.doNotSell).toEqual({
      source: 'global-privacy-control',
      at: expect.any(String),
    });
    const stored = await entries();
    expect(stored).toHaveLength(before + 1);
    expect(stored.at(-1)).toMatchObject({
      type: 'do-not-sell',
      source: 'global-privacy-control',
      leadId,
      request: '{}',
    });

    const save = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/lgname',
      payload: { firstName: 'Ann', lastName: 'Lee' },
      headers: { cookie, ...GPC },
    });
    expect(save.statusCode).toBe(200);
    expect(await entries()).toHaveLength(before + 1);
  });

  it('honours Sec-GPC: 1 on a step save and on the privacy forms, and only with the header', async () => {
    const plain = await createLead();
    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/lgname',
      payload: { firstName: 'Ann', lastName: 'Lee' },
      headers: { cookie: plain.cookie },
    });
    expect((await t.app.leadStore.get(plain.leadId))?.doNotSell).toBeUndefined();

    await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/email',
      payload: { email: 'ann.lee@example.com' },
      headers: { cookie: plain.cookie, ...GPC },
    });
    expect((await t.app.leadStore.get(plain.leadId))?.doNotSell?.source).toBe('global-privacy-control');

    const other = await createLead();
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/unsubscribe',
      payload: { email: 'gpc@example.com', phone: '3125550177', reason: 'OTHER' },
      headers: { cookie: other.cookie, ...GPC },
    });
    expect((await t.app.leadStore.get(other.leadId))?.doNotSell?.source).toBe('global-privacy-control');

    const noLead = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: GPC });
    // Without a session there is no lead to flag: a new visitor's read answers 204 (issue 25).
    expect(noLead.statusCode).toBe(204);
  });

  it("has the worker tell the buyers of the person's leads: for a do-not-sell request, Sec-GPC and an unsubscribe (issue 41)", async () => {
    const queue = new Queue(JOBS.buyerOptOut.queue, {
      connection: t.redis,
      prefix: queuePrefix(t.env.REDIS_KEY_PREFIX),
    });
    const jobOf = async (leadId: string, kind: string) => (await queue.getJob(`${leadId}.${kind}`))?.data;
    try {
      const asked = await createLead();
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/do-not-sell',
        payload: DO_NOT_SELL,
        headers: { cookie: asked.cookie },
      });
      // The lead's id and the kind of request, never the person's data.
      expect(await jobOf(asked.leadId, 'do_not_sell')).toEqual({
        leadId: asked.leadId,
        kind: 'do_not_sell',
        requestedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
        told: [],
      });
      const gpc = await createLead(GPC);
      expect(await jobOf(gpc.leadId, 'do_not_sell')).toMatchObject({ kind: 'do_not_sell' });

      // An unsubscribe reaches the leads that hold its email, whoever sends it; a lead with another does not.
      const withEmail = async (email: string) => {
        const lead = await createLead();
        await t.app.inject({
          method: 'PUT',
          url: '/api/v1/lead/steps/lgname',
          payload: { firstName: 'Sam', lastName: 'Lee' },
          headers: { cookie: lead.cookie },
        });
        const saved = await t.app.inject({
          method: 'PUT',
          url: '/api/v1/lead/steps/email',
          payload: { email },
          headers: { cookie: lead.cookie },
        });
        expect(saved.statusCode, saved.body).toBe(200);
        return lead;
      };
      const sam = await withEmail('sam.optout@example.com');
      const other = await withEmail('kim.stays@example.com');
      await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/unsubscribe',
        payload: { email: 'Sam.Optout@example.com', phone: '3125550166', reason: 'OTHER' },
      });
      expect(await jobOf(sam.leadId, 'unsubscribe')).toMatchObject({
        leadId: sam.leadId,
        kind: 'unsubscribe',
      });
      expect(await jobOf(other.leadId, 'unsubscribe')).toBeUndefined();
    } finally {
      await queue.close();
    }
  });

  it('publishes that it honours Global Privacy Control', async () => {
    const response = await t.app.inject({ method: 'GET', url: '/.well-known/gpc.json' });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ gpc: true, lastUpdate: expect.stringMatching(/^\d{4}-\d\d-\d\d$/) });
  });

  it('documents the privacy and partners endpoints', async () => {
    const doc = (await t.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        '/api/v1/privacy/unsubscribe',
        '/api/v1/privacy/do-not-sell',
        '/api/v1/partners',
      ]),
    );
  });
});

describe('privacy request rate limit', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ env: { RATE_LIMIT_MAX: '2' } });
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers 429 past the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 3; i++) {
      const response = await t.app.inject({
        method: 'POST',
        url: '/api/v1/privacy/do-not-sell',
        payload: DO_NOT_SELL,
      });
      statuses.push(response.statusCode);
    }
    expect(statuses).toEqual([200, 200, 429]);
  });
});

/** A real partner source on a local port, whose answer each test sets. */
class PartnerSource {
  hits = 0;
  answer: (res: ServerResponse) => void = (res) => res.end('{}');
  private readonly server: Server = createServer((_req: IncomingMessage, res: ServerResponse) => {
    this.hits++;
    this.answer(res);
  });

  async start(): Promise<string> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/api/partner`;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

function json(body: unknown) {
  return (res: ServerResponse) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
}

describe('partners', () => {
  const source = new PartnerSource();
  let url: string;
  const apps: TestApp[] = [];

  async function appWith(env: Record<string, string>): Promise<TestApp> {
    const t = await startTestApp({ env });
    apps.push(t);
    return t;
  }

  async function partners(t: TestApp): Promise<string[]> {
    const response = await t.app.inject({ method: 'GET', url: '/api/v1/partners' });
    expect(response.statusCode).toBe(200);
    return response.json().partners;
  }

  beforeAll(async () => {
    url = await source.start();
  });
  afterAll(async () => {
    for (const t of apps) await t.close();
    await source.stop();
  });

  it('lists the fixed names without a source', async () => {
    const t = await appWith({ PARTNER_NAMES: ' Acme Lending , Beacon Credit ,' });
    expect(await partners(t)).toEqual(['Acme Lending', 'Beacon Credit']);
    const defaults = await appWith({});
    expect((await partners(defaults)).length).toBeGreaterThan(0);
  });

  it("appends the source's names and shares them through Redis for every instance", async () => {
    source.hits = 0;
    source.answer = json({ 'Delta Loans': { id: 1 }, ' Echo Finance ': true, 'acme lending': {} });
    const env = { PARTNER_NAMES: 'Acme Lending,Beacon Credit', PARTNER_SOURCE_URL: url };
    const first = await appWith(env);
    expect(await partners(first)).toEqual(['Acme Lending', 'Beacon Credit', 'Delta Loans', 'Echo Finance']);
    expect(await partners(first)).toEqual(['Acme Lending', 'Beacon Credit', 'Delta Loans', 'Echo Finance']);

    const second = await appWith({ ...env, REDIS_KEY_PREFIX: first.env.REDIS_KEY_PREFIX });
    expect(await partners(second)).toEqual(['Acme Lending', 'Beacon Credit', 'Delta Loans', 'Echo Finance']);
    expect(source.hits).toBe(1);
    const ttl = await first.redis.pttl(`${first.env.REDIS_KEY_PREFIX}partners:source-names`);
    expect(ttl).toBeGreaterThan(60_000);
    expect(ttl).toBeLessThanOrEqual(5 * 60_000);
  });

  it('answers the fixed list when the source fails', async () => {
    source.answer = (res) => {
      res.statusCode = 500;
      res.end('boom');
    };
    const failing = await appWith({ PARTNER_NAMES: 'Acme Lending', PARTNER_SOURCE_URL: url });
    expect(await partners(failing)).toEqual(['Acme Lending']);
    // Answered around, not hidden: counted for the dashboards (and logged with its cause).
    const metrics = await failing.app.inject({ method: 'GET', url: '/metrics' });
    expect(metrics.body).toMatch(/^funnel_handled_failures_total\{operation="partner_source"\} 1$/m);

    source.answer = json(['not', 'an', 'object']);
    const malformed = await appWith({ PARTNER_NAMES: 'Acme Lending', PARTNER_SOURCE_URL: url });
    expect(await partners(malformed)).toEqual(['Acme Lending']);

    const unreachable = await appWith({
      PARTNER_NAMES: 'Acme Lending',
      PARTNER_SOURCE_URL: 'http://127.0.0.1:9/api/partner',
    });
    expect(await partners(unreachable)).toEqual(['Acme Lending']);
  });

  it('answers the fixed list by its timeout when the source does not answer, and leaves it alone a while', async () => {
    source.hits = 0;
    // The source holds its answer until the test is done: the list can only come from the BFF giving up on it.
    const held: Array<() => void> = [];
    source.answer = (res) => held.push(() => json({ 'Late Partner': {} })(res));
    const slow = await appWith({ PARTNER_NAMES: 'Acme Lending', PARTNER_SOURCE_URL: url });
    try {
      expect(await partners(slow)).toEqual(['Acme Lending']);
      expect(held).toHaveLength(1);
      expect(await partners(slow)).toEqual(['Acme Lending']);
      expect(source.hits).toBe(1);
    } finally {
      for (const answer of held) answer();
    }
  });
});
