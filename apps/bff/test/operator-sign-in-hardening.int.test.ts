// Operator sign-in hardening (issue 40, points 4, 5, 6 and 11; ADR 0023), against real Redis and PostgreSQL:
// the per-account lockout, one answer for every wrong sign-in, strong passwords, the second factor the admin and
// manager roles must enrol before they use the console, its QR code and its ten single-use recovery codes.
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { LightMyRequestResponse } from 'fastify';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { base32Decode, hotp, totpStep } from '@funnel/server-runtime/totp';
import { OPERATOR_COOKIE } from '../src/plugins/admin-auth.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-hardening-'.padEnd(48, 'k');
const PASSWORD = 'correct horse battery staple';
const FUNNEL = '/api/v1/admin/reports/funnel?from=2026-11-10&to=2026-11-10';
const MINUTE_MS = 60_000;

describe('operator sign-in hardening', () => {
  const schema = testSchema('ophard');
  let db: Kysely<Database>;
  let t: TestApp;
  let clock = new Date('2026-11-20T09:00:00Z');

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    t = await startTestApp({
      now: () => clock,
      env: {
        DATABASE_URL: `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
        ADMIN_API_TOKEN: TOKEN,
        RATE_LIMIT_MAX: '100000',
        // The production default, which the other console tests turn off.
        OPERATOR_SECOND_FACTOR_ROLES: 'admin,manager',
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
  });

  // The per-address limit is 10 an address: each call comes from an address of its own unless named.
  let calls = 0;
  const nextIp = () => `192.0.2.${(calls += 1) % 250}`;
  const call = (o: { method?: string; url: string; payload?: unknown; cookie?: string; ip?: string }) =>
    t.app.inject({
      method: (o.method ?? 'GET') as 'GET',
      url: o.url,
      ...(o.payload !== undefined ? { payload: o.payload as object } : {}),
      remoteAddress: o.ip ?? nextIp(),
      // As the console sends every request (the cross-site guard, ADR 0025).
      headers: { 'x-requested-with': 'console', ...(o.cookie ? { cookie: o.cookie } : {}) },
    });
  const signIn = (email: string, password: string, code?: string, ip?: string) =>
    call({
      method: 'POST',
      url: '/api/v1/admin/session',
      payload: { email, password, ...(code ? { code } : {}) },
      ...(ip ? { ip } : {}),
    });
  const cookieOf = (response: LightMyRequestResponse) => {
    const value = response.cookies.find((c) => c.name === OPERATOR_COOKIE && c.value !== '')?.value;
    return value ? `${OPERATOR_COOKIE}=${value}` : undefined;
  };
  const codeAt = (secret: string, ms: number) => hotp(base32Decode(secret), totpStep(ms));

  /** Creates an account (as a machine client) and answers its set-up link's token. */
  async function newAccount(email: string, role: 'viewer' | 'manager' | 'admin'): Promise<string> {
    const created = await t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/accounts',
      headers: { authorization: `Bearer ${TOKEN}` },
      payload: { email, displayName: email.split('@')[0], role },
    });
    expect(created.statusCode, created.body).toBe(201);
    return (created.json().setupPath as string).split('#')[1]!;
  }
  const setUp = (token: string, password: string) =>
    call({ method: 'POST', url: '/api/v1/admin/account-setup', payload: { token, password } });

  async function account(email: string, role: 'viewer' | 'manager' | 'admin'): Promise<void> {
    expect((await setUp(await newAccount(email, role), PASSWORD)).statusCode).toBe(204);
  }

  /** Enrols a second factor through the console with `cookie`; answers its secret and the recovery codes. */
  async function enrol(cookie: string) {
    const start = await call({ method: 'POST', url: '/api/v1/admin/me/second-factor', cookie });
    expect(start.statusCode, start.body).toBe(200);
    const { secret } = start.json();
    const confirm = await call({
      method: 'PUT',
      url: '/api/v1/admin/me/second-factor',
      cookie,
      payload: { code: codeAt(secret, clock.getTime()) },
    });
    expect(confirm.statusCode, confirm.body).toBe(200);
    return { secret: secret as string, confirm, recoveryCodes: confirm.json().recoveryCodes as string[] };
  }

  it('refuses a password zxcvbn finds easy to guess, saying why, and keeps the link for a better one', async () => {
    const token = await newAccount('wes@example.com', 'viewer');
    for (const weak of ['password1234', '123456789012']) {
      const refused = await setUp(token, weak);
      expect(refused.statusCode, weak).toBe(400);
      expect(refused.json().error.fields.password, weak).toMatch(
        /Use a longer phrase of several unrelated words/,
      );
    }
    expect((await setUp(token, PASSWORD)).statusCode).toBe(204);
    expect((await signIn('wes@example.com', PASSWORD)).statusCode).toBe(204);
  });

  it('makes an admin without a second factor enrol one (with a QR code) before the console opens', async () => {
    await account('ada@example.com', 'admin');
    const first = await signIn('ada@example.com', PASSWORD);
    expect(first.statusCode).toBe(204);
    const cookie = cookieOf(first)!;
    expect((await call({ url: '/api/v1/admin/session', cookie })).json()).toMatchObject({
      signedIn: true,
      secondFactorNeeded: true,
      account: { role: 'admin', secondFactor: false },
    });
    const refused = await call({ url: FUNNEL, cookie });
    expect(refused.statusCode).toBe(403);
    expect(refused.json().error.message).toMatch(/second factor/);

    const start = await call({ method: 'POST', url: '/api/v1/admin/me/second-factor', cookie });
    const { secret, otpauthUri, qrSvg } = start.json();
    expect(qrSvg).toMatch(/^<svg [^>]*viewBox="0 0 \d+ \d+"/);
    expect(qrSvg).not.toContain(secret);
    // The QR code is the otpauth URI's, exactly as an authenticator app reads it.
    expect(qrSvg).toBe(
      await QRCode.toString(otpauthUri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 }),
    );
    const confirm = await call({
      method: 'PUT',
      url: '/api/v1/admin/me/second-factor',
      cookie,
      payload: { code: codeAt(secret, clock.getTime()) },
    });
    expect(confirm.statusCode).toBe(200);
    // The session starts over with its factor: the new one opens the console, the enrolment-only one is gone.
    const enrolled = cookieOf(confirm)!;
    expect((await call({ url: FUNNEL, cookie: enrolled })).statusCode).toBe(200);
    expect((await call({ url: FUNNEL, cookie })).statusCode).toBe(401);
    expect((await call({ url: '/api/v1/admin/session', cookie: enrolled })).json()).not.toHaveProperty(
      'secondFactorNeeded',
    );
    const denied = await db
      .selectFrom('operator_audit')
      .select(['action', 'details'])
      .where('actor', '=', 'ada@example.com')
      .where('outcome', '=', 'denied')
      .execute();
    expect(denied).toEqual([{ action: 'reports.read', details: { needs: 'second-factor' } }]);
  });

  it('lets a viewer in on a password alone (the setting lists admin and manager)', async () => {
    await account('vic@example.com', 'viewer');
    const cookie = cookieOf(await signIn('vic@example.com', PASSWORD))!;
    expect((await call({ url: FUNNEL, cookie })).statusCode).toBe(200);
  });

  it('gives ten single-use recovery codes, hashed at rest: one signs in once instead of a code, audited', async () => {
    await account('rex@example.com', 'manager');
    const { recoveryCodes } = await enrol(cookieOf(await signIn('rex@example.com', PASSWORD))!);
    expect(recoveryCodes).toHaveLength(10);
    expect(new Set(recoveryCodes).size).toBe(10);
    const stored = await db.selectFrom('operator_recovery_codes').select('code_hash').execute();
    const compact = recoveryCodes.map((c) => c.replaceAll('-', ''));
    for (const { code_hash } of stored) {
      for (const code of [...recoveryCodes, ...compact]) expect(code_hash).not.toContain(code);
    }

    const [code] = recoveryCodes as [string];
    const used = await signIn('rex@example.com', PASSWORD, code.toUpperCase());
    expect(used.statusCode).toBe(204);
    expect((await call({ url: FUNNEL, cookie: cookieOf(used)! })).statusCode).toBe(200);
    expect((await signIn('rex@example.com', PASSWORD, code)).statusCode).toBe(401);
    const entry = await db
      .selectFrom('operator_audit')
      .select(['outcome', 'details'])
      .where('actor', '=', 'rex@example.com')
      .where('action', '=', 'session.sign-in')
      .orderBy('audit_id', 'desc')
      .limit(1)
      .execute();
    expect(entry[0]).toEqual({
      outcome: 'allowed',
      details: { secondFactor: 'recovery-code', recoveryCodesLeft: 9 },
    });
  });

  it('answers any wrong password or code alike: the answer never confirms the password', async () => {
    await account('max@example.com', 'manager');
    const { secret } = await enrol(cookieOf(await signIn('max@example.com', PASSWORD))!);
    const answers = [
      await signIn('max@example.com', PASSWORD),
      await signIn('max@example.com', 'not the password at all'),
      await signIn('max@example.com', PASSWORD, '000000'),
      await signIn('max@example.com', 'not the password at all', codeAt(secret, clock.getTime() + 30_000)),
      await signIn('nobody@example.com', PASSWORD),
    ];
    // The same answer, word for word, but for the request's own id.
    const withoutId = (answer: LightMyRequestResponse) => {
      const { error } = answer.json() as { error: Record<string, unknown> };
      return { ...error, requestId: undefined };
    };
    for (const answer of answers) {
      expect(answer.statusCode).toBe(401);
      expect(withoutId(answer)).toEqual(withoutId(answers[0]!));
      expect(cookieOf(answer)).toBeUndefined();
    }
    expect(
      (await signIn('max@example.com', PASSWORD, codeAt(secret, clock.getTime() + 30_000))).statusCode,
    ).toBe(204);
  });

  it('holds an account after wrong passwords from many addresses, with backoff, but never its known address', async () => {
    await account('lou@example.com', 'viewer');
    const home = '198.51.100.44';
    expect((await signIn('lou@example.com', PASSWORD, undefined, home)).statusCode).toBe(204);
    // 40 wrong passwords over 4 addresses (10 each: the per-address limit), then the right one from a fifth.
    const statuses = new Set<number>();
    for (let i = 0; i < 40; i += 1) {
      statuses.add(
        (await signIn('lou@example.com', `wrong guess ${i}`, undefined, `203.0.113.${i % 4}`)).statusCode,
      );
    }
    expect([...statuses].sort()).toEqual([401, 429]);
    const held = await signIn('lou@example.com', PASSWORD, undefined, '203.0.113.99');
    expect(held.statusCode).toBe(429);
    expect(cookieOf(held)).toBeUndefined();
    expect(Number(held.headers['retry-after'])).toBeLessThanOrEqual(15 * 60);
    // Its owner, at the address they signed in from before, is not held.
    expect((await signIn('lou@example.com', PASSWORD, undefined, home)).statusCode).toBe(204);

    // The same for an email with no account: the hold says nothing about who has one.
    for (let i = 0; i < 6; i += 1) await signIn('ghost@example.com', `wrong ${i}`);
    expect((await signIn('ghost@example.com', PASSWORD)).statusCode).toBe(429);

    // Backoff: five wrong answers are free, the sixth holds for 30 s, each further one twice as long.
    for (let i = 0; i < 5; i += 1) {
      const r = await signIn('lou@example.com', `again ${i}`);
      expect(r.statusCode, r.body).toBe(401);
    }
    const sixth = await signIn('lou@example.com', 'again 5');
    expect(sixth.statusCode).toBe(401);
    const waiting = await signIn('lou@example.com', PASSWORD);
    expect(waiting.statusCode).toBe(429);
    expect(waiting.headers['retry-after']).toBe('30');
    const issued = clock;
    try {
      clock = new Date(issued.getTime() + 31_000);
      expect((await signIn('lou@example.com', 'again 6')).statusCode).toBe(401);
      expect((await signIn('lou@example.com', PASSWORD)).headers['retry-after']).toBe('60');
      // However many failures, the hold ends within 15 minutes: an attacker cannot keep the owner out for long.
      clock = new Date(issued.getTime() + 16 * MINUTE_MS);
      expect((await signIn('lou@example.com', PASSWORD)).statusCode).toBe(204);
    } finally {
      clock = issued;
    }
  }, 120_000);
});
