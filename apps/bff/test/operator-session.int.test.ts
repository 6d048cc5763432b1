import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { OPERATOR_COOKIE } from '../src/admin/operator-cookie.js';
import { SESSION_COOKIE } from '../src/plugins/lead-session.js';
import { cookieOf } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-session-'.padEnd(48, 'k');
const HOUR_MS = 60 * 60 * 1000;
const FUNNEL = '/api/v1/admin/reports/funnel?from=2026-11-10&to=2026-11-10';

describe('the operator session cookie', () => {
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
      env: { DATABASE_URL: url, ADMIN_API_TOKEN: TOKEN, RATE_LIMIT_MAX: '100000' },
    });
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
  });

  const signIn = (token: string, ip = '203.0.113.10') =>
    t.app.inject({ method: 'POST', url: '/api/v1/admin/session', payload: { token }, remoteAddress: ip });
  const operatorCookie = (response: Awaited<ReturnType<typeof signIn>>) =>
    response.cookies.find((c) => c.name === OPERATOR_COOKIE);

  it('refuses a wrong token with 401 and sets no cookie', async () => {
    const response = await signIn('not-the-operator-token-'.padEnd(48, 'x'));
    expect(response.statusCode).toBe(401);
    expect(response.json()).toMatchObject({ error: { code: 'UNAUTHORIZED' } });
    expect(response.headers['set-cookie']).toBeUndefined();
  });

  it('exchanges the right token for a signed, HttpOnly, Secure, SameSite=Strict cookie on the admin API', async () => {
    const response = await signIn(TOKEN);
    expect(response.statusCode).toBe(204);
    const cookie = operatorCookie(response);
    expect(cookie).toMatchObject({
      httpOnly: true,
      secure: true,
      sameSite: 'Strict',
      path: '/api/v1/admin',
      maxAge: 8 * 60 * 60,
    });
    expect(cookie!.value).not.toContain(TOKEN);
  });

  it('reads the reports with the cookie, JSON and CSV, and answers whether it is signed in', async () => {
    const cookie = `${OPERATOR_COOKIE}=${operatorCookie(await signIn(TOKEN))!.value}`;
    const report = await t.app.inject({ method: 'GET', url: FUNNEL, headers: { cookie } });
    expect(report.statusCode).toBe(200);
    expect(report.json()).toMatchObject({ outcomes: { created: 1 }, filters: { from: '2026-11-10' } });
    const sales = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/reports/sales?from=2026-11-10&to=2026-11-10&format=csv',
      headers: { cookie },
    });
    expect(sales.statusCode).toBe(200);
    expect(sales.headers['content-disposition']).toBe(
      'attachment; filename="sales-2026-11-10-2026-11-10.csv"',
    );
    const session = await t.app.inject({ method: 'GET', url: '/api/v1/admin/session', headers: { cookie } });
    expect(session.json()).toEqual({ signedIn: true });
  });

  it('never lets the cookie do what needs the token: erasure and consent stay bearer-only', async () => {
    const cookie = `${OPERATOR_COOKIE}=${operatorCookie(await signIn(TOKEN))!.value}`;
    const erase = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/deletion-requests',
      payload: { email: 'someone@example.com' },
      headers: { cookie },
    });
    expect(erase.statusCode).toBe(401);
  });

  it('refuses a tampered, a foreign-signed or an expired cookie with 401', async () => {
    const value = operatorCookie(await signIn(TOKEN))!.value;
    const [issuedAt, mac] = value.split('.') as [string, string];
    const tampered = [
      `${Number(issuedAt) + 3600}.${mac}`,
      `${issuedAt}.${mac.slice(0, -2)}${mac.endsWith('AA') ? 'BB' : 'AA'}`,
      `${issuedAt}`,
      'garbage',
    ];
    for (const forged of tampered) {
      const response = await t.app.inject({
        method: 'GET',
        url: FUNNEL,
        headers: { cookie: `${OPERATOR_COOKIE}=${forged}` },
      });
      expect(response.statusCode, forged).toBe(401);
    }

    const issued = clock;
    try {
      clock = new Date(issued.getTime() + 8 * HOUR_MS - 60_000);
      const late = await t.app.inject({
        method: 'GET',
        url: FUNNEL,
        headers: { cookie: `${OPERATOR_COOKIE}=${value}` },
      });
      expect(late.statusCode).toBe(200);
      clock = new Date(issued.getTime() + 8 * HOUR_MS + 1000);
      const expired = await t.app.inject({
        method: 'GET',
        url: FUNNEL,
        headers: { cookie: `${OPERATOR_COOKIE}=${value}` },
      });
      expect(expired.statusCode).toBe(401);
    } finally {
      clock = issued;
    }
  });

  it("keeps the borrower's cookie and the operator's apart", async () => {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead',
      payload: { amount: 500, loanReason: 'OTHER', zipCode: '10001' },
    });
    const leadCookie = cookieOf(created);
    // The borrower's signed cookie, under either name, grants no report.
    const asLead = await t.app.inject({ method: 'GET', url: FUNNEL, headers: { cookie: leadCookie } });
    expect(asLead.statusCode).toBe(401);
    const renamed = leadCookie.replace(`${SESSION_COOKIE}=`, `${OPERATOR_COOKIE}=`);
    const asOperator = await t.app.inject({ method: 'GET', url: FUNNEL, headers: { cookie: renamed } });
    expect(asOperator.statusCode).toBe(401);
    // The operator's cookie, under either name, opens no lead.
    const value = operatorCookie(await signIn(TOKEN))!.value;
    for (const cookie of [`${OPERATOR_COOKIE}=${value}`, `${SESSION_COOKIE}=${value}`]) {
      const lead = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } });
      expect(lead.statusCode, cookie).not.toBe(200);
    }
  });

  it('signs out: the cookie is cleared', async () => {
    const response = await t.app.inject({ method: 'DELETE', url: '/api/v1/admin/session' });
    expect(response.statusCode).toBe(204);
    const cleared = operatorCookie(response as Awaited<ReturnType<typeof signIn>>);
    expect(cleared).toMatchObject({ value: '', path: '/api/v1/admin', httpOnly: true, sameSite: 'Strict' });
    expect(new Date(cleared!.expires!).getTime()).toBeLessThan(Date.now());
    const session = await t.app.inject({ method: 'GET', url: '/api/v1/admin/session' });
    expect(session.json()).toEqual({ signedIn: false });
  });

  it('limits sign-in attempts per address', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 11; i += 1) statuses.push((await signIn(`wrong-${i}`, '198.51.100.7')).statusCode);
    expect(statuses.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(statuses[10]).toBe(429);
    // The limit counts per address: another operator still signs in.
    expect((await signIn(TOKEN, '198.51.100.8')).statusCode).toBe(204);
  });
});
