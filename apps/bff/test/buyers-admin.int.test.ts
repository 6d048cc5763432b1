import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { buyerBreakerKey } from '@funnel/server-runtime/buyer-breaker';
import {
  buyerConfigAppliedKey,
  buyerConfigChannel,
  noteBuyerWorker,
} from '@funnel/server-runtime/buyer-config-signal';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { OPERATOR_COOKIE } from '../src/plugins/admin-auth.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-buyers-'.padEnd(48, 'q');
const PASSWORD = 'correct horse battery staple';
const SECRET = 'prime-secret-credential-1234';
const API = '/api/v1/admin/buyers';

const prime = {
  id: 'prime',
  protocol: 'sync-post',
  baseUrl: 'http://127.0.0.1:4010/buyers/prime',
  apiKey: SECRET,
  tier: 1,
  priceLadder: [50, 20],
};

describe('buyers managed live: the admin API', () => {
  const schema = testSchema('buyersadmin');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const folder = mkdtempSync(path.join(tmpdir(), 'buyers-admin-'));
  const file = path.join(folder, 'buyers.json');
  let db: Kysely<Database>;
  let t: TestApp;
  let managerCookie: string;
  let viewerCookie: string;
  let managerId: string;
  let calls = 0;

  const call = (method: string, route: string, payload?: unknown, cookie = managerCookie) =>
    t.app.inject({
      method: method as 'GET',
      url: route,
      ...(payload !== undefined ? { payload: payload as object } : {}),
      remoteAddress: `203.0.113.${(calls += 1) % 250}`,
      // What the console sends with every request (docs/adr/0025).
      headers: { cookie, 'x-requested-with': 'fetch' },
    });

  const asAdmin = (method: string, route: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: route,
      ...(payload !== undefined ? { payload: payload as object } : {}),
      headers: { authorization: `Bearer ${TOKEN}` },
    });

  async function account(email: string, role: 'viewer' | 'manager'): Promise<[string, string]> {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/accounts',
      headers: { authorization: `Bearer ${TOKEN}` },
      payload: { email, displayName: email.split('@')[0], role },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { account: made, setupPath } = created.json();
    const setup = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/account-setup',
      payload: { token: setupPath.split('#')[1], password: PASSWORD },
    });
    expect(setup.statusCode).toBe(204);
    const signIn: LightMyRequestResponse = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/session',
      payload: { email, password: PASSWORD },
      remoteAddress: `198.51.100.${(calls += 1) % 250}`,
    });
    expect(signIn.statusCode, signIn.body).toBe(204);
    const cookie = signIn.cookies.find((c) => c.name === OPERATOR_COOKIE)!;
    return [made.accountId as string, `${OPERATOR_COOKIE}=${cookie.value}`];
  }

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    writeFileSync(file, JSON.stringify({ timeZone: 'America/New_York', buyers: [prime] }));
    t = await startTestApp({
      env: { DATABASE_URL: url, ADMIN_API_TOKEN: TOKEN, BUYERS_FILE: file, RATE_LIMIT_MAX: '100000' },
    });
    [managerId, managerCookie] = await account('mia@example.com', 'manager');
    [, viewerCookie] = await account('vic@example.com', 'viewer');
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses a viewer every buyers route with 403, and audits the refusal', async () => {
    for (const [method, route] of [
      ['GET', API],
      ['GET', `${API}/health`],
      ['POST', `${API}/prime/pause`],
    ] as const) {
      expect((await call(method, route, undefined, viewerCookie)).statusCode).toBe(403);
    }
    const denied = await db
      .selectFrom('operator_audit')
      .select(['action', 'actor'])
      .where('outcome', '=', 'denied')
      .where('action', '=', 'buyers.pause')
      .execute();
    expect(denied).toEqual([{ action: 'buyers.pause', actor: 'vic@example.com' }]);
  });

  it('imports BUYERS_FILE as version 1 and never answers a credential', async () => {
    const response = await call('GET', API);
    expect(response.statusCode, response.body).toBe(200);
    expect(response.body).not.toContain(SECRET);
    expect(response.json()).toMatchObject({
      version: 1,
      actor: 'buyers-file',
      buyers: [{ id: 'prime', hasApiKey: true, paused: false }],
    });
    const exported = await call('GET', `${API}/export`);
    expect(exported.body).not.toContain(SECRET);
    expect(exported.json().buyers[0]).toMatchObject({ id: 'prime', priceLadder: [50, 20] });
    const stored = await db.selectFrom('buyer_config_versions').selectAll().execute();
    expect(JSON.stringify(stored)).not.toContain(SECRET);
  });

  it('pauses and resumes a buyer as new versions, tells the workers, and audits who did it', async () => {
    const listener = t.redis.duplicate();
    const heard: string[] = [];
    listener.on('message', (_channel: string, message: string) => heard.push(message));
    await listener.subscribe(buyerConfigChannel(t.env.REDIS_KEY_PREFIX));
    try {
      const paused = await call('POST', `${API}/prime/pause`);
      expect(paused.statusCode, paused.body).toBe(200);
      expect(paused.json()).toMatchObject({ buyers: [{ id: 'prime', paused: true }] });
      const resumed = await call('POST', `${API}/prime/resume`);
      expect(resumed.json()).toMatchObject({ buyers: [{ id: 'prime', paused: false }] });
      await expect.poll(() => heard.length).toBe(2);
      expect(heard.map(Number)).toEqual([resumed.json().version - 1, resumed.json().version]);
    } finally {
      await listener.quit();
    }
    const versions = (await call('GET', `${API}/versions`)).json().versions;
    expect(versions.slice(0, 2)).toMatchObject([
      { action: 'resume', actor: 'mia@example.com', summary: 'resumed prime' },
      { action: 'pause', actor: 'mia@example.com', summary: 'paused prime' },
    ]);
    const audit = await db
      .selectFrom('operator_audit')
      .select(['action', 'account_id', 'buyer'])
      .where('outcome', '=', 'allowed')
      .where('action', 'in', ['buyers.pause', 'buyers.resume'])
      .orderBy('audit_id')
      .execute();
    expect(audit).toEqual([
      { action: 'buyers.pause', account_id: managerId, buyer: 'prime' },
      { action: 'buyers.resume', account_id: managerId, buyer: 'prime' },
    ]);
  });

  it('refuses a change that fails the buyers file schema with field messages, and keeps the running version', async () => {
    const before = (await call('GET', API)).json().version;
    const bad = await call('PUT', `${API}/prime`, {
      ...prime,
      apiKey: undefined,
      priceLadder: [20, 50],
      filters: { states: ['Texas'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error).toMatchObject({
      code: 'VALIDATION_FAILED',
      fields: {
        priceLadder: 'The ladder must go strictly down',
        'filters.states.0': 'Expected a two-letter state code',
      },
    });
    const duplicate = await call('POST', API, prime);
    expect(duplicate.json().error.fields).toEqual({ id: 'Duplicate id' });
    expect((await call('GET', API)).json().version).toBe(before);
  });

  it('keeps the credential when an edit leaves it out, and adds a buyer', async () => {
    const { apiKey: _secret, ...withoutKey } = prime;
    const edited = await call('PUT', `${API}/prime`, {
      ...withoutKey,
      priceLadder: [60, 30],
      caps: { perHour: 5 },
    });
    expect(edited.statusCode, edited.body).toBe(200);
    expect(edited.json().buyers[0]).toMatchObject({
      priceLadder: [60, 30],
      hasApiKey: true,
      caps: { perHour: 5 },
    });
    // The version names what changed, not every setting the edit sent back.
    expect((await call('GET', `${API}/versions`)).json().versions[0].summary).toBe(
      'updated prime: caps, priceLadder',
    );
    // A buyer's address is where leads go: only an admin adds one (ADR 0024).
    expect((await call('POST', API, { ...withoutKey, id: 'second', tier: 2 })).statusCode).toBe(403);
    const added = await asAdmin('POST', API, { ...withoutKey, id: 'second', tier: 2 });
    expect(added.statusCode, added.body).toBe(201);
    expect(added.json().buyers.map((b: { id: string; hasApiKey: boolean }) => [b.id, b.hasApiKey])).toEqual([
      ['prime', true],
      ['second', false],
    ]);
    // The workers opened prime's breaker (as they write it, ADR 0022) and passed it over for three leads.
    const openUntil = Date.parse('2026-11-26T03:30:15Z');
    await t.redis.hset(buyerBreakerKey(t.env.REDIS_KEY_PREFIX, 'prime'), {
      state: 'open',
      failures: 5,
      openUntil,
      trialUntil: 0,
      skips: 3,
      rev: 4,
    });
    const health = await call('GET', `${API}/health`);
    expect(health.statusCode, health.body).toBe(200);
    expect(health.json()).toMatchObject({
      windowMinutes: 15,
      buyers: [
        {
          buyer: 'prime',
          attempts: 0,
          acceptRate: null,
          capUse: { hour: 0, perHour: 5 },
          breaker: { state: 'open', openUntil: '2026-11-26T03:30:15.000Z', failures: 5, skips: 3 },
        },
        {
          buyer: 'second',
          attempts: 0,
          breaker: { state: 'closed', openUntil: null, failures: 0, skips: 0 },
        },
      ],
    });
  });

  it('lists a worker not seen for several checks as gone, with when it was last seen, apart from the running ones', async () => {
    const now = Date.now();
    const key = buyerConfigAppliedKey(t.env.REDIS_KEY_PREFIX);
    // A worker stopped 40 minutes ago, its note as it left it; one running, its heartbeat a second old.
    const stoppedAt = now - 40 * 60_000;
    await t.redis.hset(key, 'worker-stopped', `1:${stoppedAt}`);
    await noteBuyerWorker(t.redis, t.env.REDIS_KEY_PREFIX, 'worker-running', {
      version: 4,
      appliedAt: now - 60_000,
      seenAt: now - 1000,
      everyMs: 2000,
    });
    // One gone for more than a day is forgotten.
    await noteBuyerWorker(t.redis, t.env.REDIS_KEY_PREFIX, 'worker-long-gone', {
      version: 1,
      appliedAt: now - 3 * 86_400_000,
      seenAt: now - 2 * 86_400_000,
      everyMs: 2000,
    });
    try {
      const health = await call('GET', `${API}/health`);
      expect(health.statusCode, health.body).toBe(200);
      expect(health.json().workers).toEqual([
        {
          worker: 'worker-running',
          version: 4,
          at: new Date(now - 60_000).toISOString(),
          lastSeenAt: new Date(now - 1000).toISOString(),
          gone: false,
        },
        {
          worker: 'worker-stopped',
          version: 1,
          at: new Date(stoppedAt).toISOString(),
          lastSeenAt: new Date(stoppedAt).toISOString(),
          gone: true,
        },
      ]);
      expect(await t.redis.hexists(key, 'worker-long-gone')).toBe(0);
    } finally {
      await t.redis.del(key);
    }
  });

  it('imports BUYERS_FILE again on demand, keeping credentials the file leaves out, and refuses a bad file whole', async () => {
    const { apiKey: _secret, ...withoutKey } = prime;
    writeFileSync(
      file,
      JSON.stringify({
        timeZone: 'America/Chicago',
        buyers: [{ ...withoutKey, filters: { states: ['TX'] } }],
      }),
    );
    const imported = await call('POST', `${API}/import`);
    expect(imported.statusCode, imported.body).toBe(200);
    expect(imported.json()).toMatchObject({
      timeZone: 'America/Chicago',
      buyers: [{ id: 'prime', hasApiKey: true, filters: { states: ['TX'] } }],
    });
    expect((await call('GET', `${API}/versions`)).json().versions[0]).toMatchObject({
      action: 'import',
      summary: 'imported 1 buyers from BUYERS_FILE',
    });
    const version = imported.json().version;
    const bad = await call('POST', `${API}/import`, {
      timeZone: 'Mars/Olympus',
      buyers: [{ ...prime, baseUrl: 'ftp://x' }],
    });
    expect(bad.statusCode).toBe(400);
    expect(Object.keys(bad.json().error.fields)).toEqual(['timeZone', 'buyers.0.baseUrl']);
    expect((await call('GET', API)).json().version).toBe(version);
  });
});
