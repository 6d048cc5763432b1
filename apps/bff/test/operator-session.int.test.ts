import type { Kysely } from 'kysely';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { base32Decode, hotp, totpStep } from '@funnel/server-runtime/totp';
import { OPERATOR_COOKIE } from '../src/plugins/admin-auth.js';
import { SESSION_COOKIE } from '../src/plugins/lead-session.js';
import { cookieOf } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-session-'.padEnd(48, 'k');
const MINUTE_MS = 60_000;
const FUNNEL = '/api/v1/admin/reports/funnel?from=2026-11-10&to=2026-11-10';
const PASSWORD = 'correct horse battery staple';

describe('operator accounts, sessions, roles and the audit log', () => {
  const schema = testSchema('opsession');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let db: Kysely<Database>;
  let t: TestApp;
  let clock = new Date('2026-11-12T15:00:00Z');

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    await recordEvents(db, [
      {
        eventId: 'lead-op-session-1.created',
        leadId: 'lead-op-session-1',
        at: '2026-11-10T17:00:00.000Z',
        type: 'created',
        source: 'funnel',
        affiliate: 'aff-op',
        amount: 700,
      },
    ]);
    t = await startTestApp({
      now: () => clock,
      // The roles' required second factor has its own test (operator-sign-in-hardening.int.test.ts): here an
      // admin's password alone opens the console, so each test reads what it is about.
      env: {
        DATABASE_URL: url,
        ADMIN_API_TOKEN: TOKEN,
        RATE_LIMIT_MAX: '100000',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
  });

  type Call = {
    method?: string;
    url: string;
    payload?: unknown;
    cookie?: string;
    ip?: string;
    token?: string;
  };
  // Sign-in and set-up are rate-limited per address: each call comes from an address of its own unless named.
  let calls = 0;
  const nextIp = () => `203.0.113.${(calls += 1) % 250}`;
  const call = ({ method = 'GET', url, payload, cookie, ip = nextIp(), token }: Call) =>
    t.app.inject({
      method: method as 'GET',
      url,
      ...(payload !== undefined ? { payload: payload as object } : {}),
      remoteAddress: ip,
      headers: {
        // What the console sends with every request (docs/adr/0025).
        'x-requested-with': 'fetch',
        ...(cookie ? { cookie } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
    });
  const operatorCookie = (response: LightMyRequestResponse) =>
    response.cookies.find((c) => c.name === OPERATOR_COOKIE);
  const signIn = (email: string, password = PASSWORD, code?: string, ip = nextIp()) =>
    call({ method: 'POST', url: '/api/v1/admin/session', payload: { email, password, code }, ip });
  const cookieFor = async (email: string, code?: string) => {
    const response = await signIn(email, PASSWORD, code);
    expect(response.statusCode, response.body).toBe(204);
    return `${OPERATOR_COOKIE}=${operatorCookie(response)!.value}`;
  };
  const codeAt = (secret: string, ms: number) => hotp(base32Decode(secret), totpStep(ms));

  /** An account created by an admin (the machine token here), its set-up link used to choose PASSWORD. */
  async function account(email: string, role: 'viewer' | 'manager' | 'admin'): Promise<string> {
    const created = await call({
      method: 'POST',
      url: '/api/v1/admin/accounts',
      token: TOKEN,
      payload: { email, displayName: email.split('@')[0], role },
    });
    expect(created.statusCode, created.body).toBe(201);
    const { account: made, setupPath } = created.json();
    expect(setupPath).toMatch(/^\/operator\/setup#[A-Za-z0-9_-]{43}$/);
    const setup = await call({
      method: 'POST',
      url: '/api/v1/admin/account-setup',
      payload: { token: setupPath.split('#')[1], password: PASSWORD },
    });
    expect(setup.statusCode, setup.body).toBe(204);
    // The link works once.
    const again = await call({
      method: 'POST',
      url: '/api/v1/admin/account-setup',
      payload: { token: setupPath.split('#')[1], password: 'another password entirely' },
    });
    expect(again.statusCode).toBe(400);
    return made.accountId as string;
  }

  let adminId: string;
  let viewerId: string;
  beforeAll(async () => {
    adminId = await account('ada@example.com', 'admin');
    viewerId = await account('vic@example.com', 'viewer');
    await account('max@example.com', 'manager');
  });

  it('signs in with email and password: an opaque HttpOnly, Secure, SameSite=Strict cookie on the admin API', async () => {
    const response = await signIn('Ada@Example.com');
    expect(response.statusCode).toBe(204);
    const cookie = operatorCookie(response)!;
    expect(cookie).toMatchObject({ httpOnly: true, secure: true, sameSite: 'Strict', path: '/api/v1/admin' });
    expect(cookie.value).toMatch(/^[A-Za-z0-9_-]{43}$/);
    // Redis holds the session under the id's hash, never the id itself.
    expect(await t.redis.keys(`${t.env.REDIS_KEY_PREFIX}*${cookie.value}*`)).toEqual([]);
    const session = await call({
      url: '/api/v1/admin/session',
      cookie: `${OPERATOR_COOKIE}=${cookie.value}`,
    });
    expect(session.json()).toMatchObject({
      signedIn: true,
      account: { email: 'ada@example.com', role: 'admin', secondFactor: false },
    });
  });

  it('refuses a wrong password, an unknown email and an old default alike, with 401 and no cookie', async () => {
    for (const [email, password] of [
      ['ada@example.com', 'not the password at all'],
      ['nobody@example.com', PASSWORD],
      ['admin@example.com', 'admin'],
    ] as const) {
      const response = await signIn(email, password);
      expect(response.statusCode).toBe(401);
      expect(response.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
      expect(operatorCookie(response)).toBeUndefined();
    }
  });

  it('enrols a TOTP second factor, then asks for a code at sign-in and takes each code once', async () => {
    const cookie = await cookieFor('max@example.com');
    const start = await call({ method: 'POST', url: '/api/v1/admin/me/second-factor', cookie });
    expect(start.statusCode).toBe(200);
    const { secret, otpauthUri } = start.json();
    expect(otpauthUri).toContain(`secret=${secret}`);
    const wrong = await call({
      method: 'PUT',
      url: '/api/v1/admin/me/second-factor',
      cookie,
      payload: { code: '000000' },
    });
    expect(wrong.statusCode).toBe(400);
    const confirm = await call({
      method: 'PUT',
      url: '/api/v1/admin/me/second-factor',
      cookie,
      payload: { code: codeAt(secret, clock.getTime()) },
    });
    expect(confirm.statusCode).toBe(200);

    const noCode = await signIn('max@example.com');
    expect(noCode.statusCode).toBe(401);
    expect(operatorCookie(noCode)).toBeUndefined();
    expect((await signIn('max@example.com', PASSWORD, '123456')).statusCode).toBe(401);
    // The code of the step already used to confirm is refused; the next step's is taken, once.
    expect((await signIn('max@example.com', PASSWORD, codeAt(secret, clock.getTime()))).statusCode).toBe(401);
    const next = codeAt(secret, clock.getTime() + 30_000);
    expect((await signIn('max@example.com', PASSWORD, next)).statusCode).toBe(204);
    expect((await signIn('max@example.com', PASSWORD, next)).statusCode).toBe(401);
  });

  it('lets a viewer read reports but refuses admin actions with 403, and audits the refusal', async () => {
    const cookie = await cookieFor('vic@example.com');
    expect((await call({ url: FUNNEL, cookie })).statusCode).toBe(200);
    for (const request of [
      { url: '/api/v1/admin/accounts' },
      { url: '/api/v1/admin/audit' },
      { url: '/api/v1/admin/consent/AAAAAAAAAAAAAAAAAAAAAA' },
      { method: 'POST', url: '/api/v1/admin/deletion-requests', payload: { email: 'someone@example.com' } },
    ]) {
      const response = await call({ ...request, cookie });
      expect(response.statusCode, request.url).toBe(403);
      expect(response.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
    }
    const audit = await call({ url: `/api/v1/admin/audit?actor=${viewerId}&outcome=denied`, token: TOKEN });
    expect(audit.json().entries.map((e: { action: string }) => e.action)).toEqual([
      'deletion-request.create',
      'consent.reveal',
      'audit.read',
      'accounts.list',
    ]);
  });

  it('audits every read and write: who, what, which lead, when, from which address; filters and CSV', async () => {
    const cookie = await cookieFor('ada@example.com');
    expect((await call({ url: FUNNEL, cookie, ip: '198.51.100.20' })).statusCode).toBe(200);
    const postbacks = await call({
      url: '/api/v1/admin/postbacks?leadId=lead-op-session-1',
      cookie,
      ip: '198.51.100.20',
    });
    expect(postbacks.statusCode).toBe(200);
    const page = await call({
      url: `/api/v1/admin/audit?actor=${adminId}&from=2026-11-12&to=2026-11-12`,
      cookie,
    });
    expect(page.statusCode).toBe(200);
    const [latest, reads, report] = page.json().entries;
    // The audit read itself is the newest entry.
    expect(latest).toMatchObject({ action: 'audit.read', actor: 'ada@example.com', outcome: 'allowed' });
    expect(reads).toMatchObject({
      action: 'postbacks.read',
      leadId: 'lead-op-session-1',
      ip: '198.51.100.20',
    });
    expect(report).toMatchObject({
      action: 'reports.read',
      route: '/api/v1/admin/reports/funnel',
      details: { from: '2026-11-10', to: '2026-11-10', format: 'json' },
    });
    expect(report.at).toBe(clock.toISOString());

    const byLead = await call({ url: '/api/v1/admin/audit?leadId=lead-op-session-1', cookie });
    // The postback read, and this search of the log for the lead (itself audited, before it reads).
    expect(byLead.json().entries.map((e: { action: string }) => e.action)).toEqual([
      'audit.read',
      'postbacks.read',
    ]);
    const csv = await call({
      url: `/api/v1/admin/audit?actor=${adminId}&action=reports.read&format=csv`,
      cookie,
    });
    expect(csv.headers['content-type']).toMatch(/^text\/csv/);
    const lines = csv.body.trim().split('\r\n');
    expect(lines[0]).toMatch(/^at,actor,account_id,action,outcome/);
    expect(lines.slice(1).every((line) => line.includes(',reports.read,allowed,'))).toBe(true);

    // The machine token is audited too, under its own name.
    await call({ url: FUNNEL, token: TOKEN });
    const machine = await call({ url: '/api/v1/admin/audit?actor=api-token&action=reports.read', cookie });
    expect(machine.json().entries[0]).toMatchObject({ actor: 'api-token', accountId: null });
  });

  it('keeps the audit log append-only: PostgreSQL refuses UPDATE, DELETE and TRUNCATE', async () => {
    await expect(sql`update operator_audit set actor = 'someone else'`.execute(db)).rejects.toThrow(
      /append-only/,
    );
    await expect(sql`delete from operator_audit`.execute(db)).rejects.toThrow(/append-only/);
    await expect(sql`truncate operator_audit`.execute(db)).rejects.toThrow(/append-only/);
  });

  it('refuses a session at once when its account is disabled, or its role changes', async () => {
    const admin = await cookieFor('ada@example.com');
    const viewer = await cookieFor('vic@example.com');
    expect((await call({ url: FUNNEL, cookie: viewer })).statusCode).toBe(200);
    const disable = await call({
      method: 'PATCH',
      url: `/api/v1/admin/accounts/${viewerId}`,
      cookie: admin,
      payload: { disabled: true },
    });
    expect(disable.json()).toMatchObject({ disabledAt: expect.any(String) });
    expect((await call({ url: FUNNEL, cookie: viewer })).statusCode).toBe(401);
    expect((await signIn('vic@example.com')).statusCode).toBe(401);
    // An admin cannot lock themselves out.
    const self = await call({
      method: 'PATCH',
      url: `/api/v1/admin/accounts/${adminId}`,
      cookie: admin,
      payload: { disabled: true },
    });
    expect(self.statusCode).toBe(409);
    await call({
      method: 'PATCH',
      url: `/api/v1/admin/accounts/${viewerId}`,
      cookie: admin,
      payload: { disabled: false },
    });
    const again = await cookieFor('vic@example.com');
    expect((await call({ url: FUNNEL, cookie: again })).statusCode).toBe(200);
    await call({
      method: 'PATCH',
      url: `/api/v1/admin/accounts/${viewerId}`,
      cookie: admin,
      payload: { role: 'manager' },
    });
    expect((await call({ url: FUNNEL, cookie: again })).statusCode).toBe(401);
    const promoted = await call({ url: '/api/v1/admin/session', cookie: await cookieFor('vic@example.com') });
    expect(promoted.json().account.role).toBe('manager');
  });

  it('starts an account over: its password and second factor gone, its sessions ended, a new one-time link', async () => {
    const admin = await cookieFor('ada@example.com');
    const max = await call({ url: '/api/v1/admin/accounts', cookie: admin });
    const maxId = max.json().accounts.find((a: { email: string }) => a.email === 'max@example.com').accountId;
    const reset = await call({ method: 'POST', url: `/api/v1/admin/accounts/${maxId}/reset`, cookie: admin });
    expect(reset.statusCode).toBe(200);
    expect(reset.json().account).toMatchObject({ hasPassword: false, secondFactor: false });
    // The old password no longer opens the account.
    expect((await signIn('max@example.com')).statusCode).toBe(401);
    const setup = await call({
      method: 'POST',
      url: '/api/v1/admin/account-setup',
      payload: { token: reset.json().setupPath.split('#')[1], password: PASSWORD },
    });
    expect(setup.statusCode).toBe(204);
    // No second factor any more: the password alone signs in, until a new one is enrolled.
    expect((await signIn('max@example.com')).statusCode).toBe(204);
    expect(
      (await call({ method: 'POST', url: `/api/v1/admin/accounts/${adminId}/reset`, cookie: admin }))
        .statusCode,
    ).toBe(409);
  });

  it("signs out everywhere: every browser of the account must sign in again, and no one else's", async () => {
    const laptop = await cookieFor('ada@example.com');
    const phone = await cookieFor('ada@example.com');
    const colleague = await cookieFor('max@example.com');
    expect((await call({ method: 'DELETE', url: '/api/v1/admin/sessions', cookie: laptop })).statusCode).toBe(
      204,
    );
    for (const cookie of [laptop, phone]) expect((await call({ url: FUNNEL, cookie })).statusCode).toBe(401);
    expect((await call({ url: FUNNEL, cookie: colleague })).statusCode).toBe(200);
    const [entry] = await db
      .selectFrom('operator_audit')
      .select(['actor', 'outcome'])
      .where('action', '=', 'session.sign-out-everywhere')
      .execute();
    expect(entry).toEqual({ actor: 'ada@example.com', outcome: 'allowed' });
  });

  it('ends a session after 30 idle minutes, and 8 hours after sign-in however busy', async () => {
    const issued = clock;
    try {
      const idle = await cookieFor('ada@example.com');
      clock = new Date(issued.getTime() + 29 * MINUTE_MS);
      expect((await call({ url: FUNNEL, cookie: idle })).statusCode).toBe(200);
      clock = new Date(clock.getTime() + 31 * MINUTE_MS);
      expect((await call({ url: FUNNEL, cookie: idle })).statusCode).toBe(401);

      clock = issued;
      const busy = await cookieFor('ada@example.com');
      for (let minutes = 25; minutes < 8 * 60; minutes += 25) {
        clock = new Date(issued.getTime() + minutes * MINUTE_MS);
        expect((await call({ url: FUNNEL, cookie: busy })).statusCode, `${minutes} min`).toBe(200);
      }
      clock = new Date(issued.getTime() + 8 * 60 * MINUTE_MS + 1000);
      expect((await call({ url: FUNNEL, cookie: busy })).statusCode).toBe(401);
    } finally {
      clock = issued;
    }
  });

  it("keeps the borrower's cookie and the operator's apart", async () => {
    const created = await call({
      method: 'POST',
      url: '/api/v1/lead',
      payload: { amount: 500, loanReason: 'OTHER', zipCode: '10001' },
    });
    const leadCookie = cookieOf(created);
    expect((await call({ url: FUNNEL, cookie: leadCookie })).statusCode).toBe(401);
    const renamed = leadCookie.replace(`${SESSION_COOKIE}=`, `${OPERATOR_COOKIE}=`);
    expect((await call({ url: FUNNEL, cookie: renamed })).statusCode).toBe(401);
    const value = (await cookieFor('ada@example.com')).split('=')[1]!;
    for (const cookie of [`${OPERATOR_COOKIE}=${value}`, `${SESSION_COOKIE}=${value}`]) {
      expect((await call({ url: '/api/v1/lead', cookie })).statusCode, cookie).not.toBe(200);
    }
  });

  it('signs out in this browser: the session ends and the cookie is cleared', async () => {
    const cookie = await cookieFor('ada@example.com');
    const response = await call({ method: 'DELETE', url: '/api/v1/admin/session', cookie });
    expect(response.statusCode).toBe(204);
    expect(operatorCookie(response)).toMatchObject({ value: '', path: '/api/v1/admin', httpOnly: true });
    expect((await call({ url: FUNNEL, cookie })).statusCode).toBe(401);
    expect((await call({ url: '/api/v1/admin/session', cookie })).json()).toMatchObject({ signedIn: false });
  });

  it('limits sign-in attempts per address', async () => {
    const statuses: number[] = [];
    // Other accounts each time: one account's own lockout (ADR 0023) would answer before the address's limit.
    for (let i = 0; i < 11; i += 1) {
      statuses.push(
        (await signIn(`guess-${i}@example.com`, `wrong-${i}`, undefined, '198.51.100.7')).statusCode,
      );
    }
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    expect((await signIn('ada@example.com', PASSWORD, undefined, '198.51.100.8')).statusCode).toBe(204);
  });
});
