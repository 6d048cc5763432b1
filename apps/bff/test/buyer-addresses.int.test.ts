import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { currentBuyerConfig } from '@funnel/db/buyer-config';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { operatorCookies } from './operator-cookies.js';
import { startTestApp, type TestApp } from './test-app.js';

const API = '/api/v1/admin/buyers';
const SECRET = 'prime-secret-credential-5678';
// Public addresses (TEST-NET) with no DNS: what a manager's own listener could be.
const HOME = 'http://198.51.100.20:8443/buyers/prime';
const ELSEWHERE = 'http://203.0.113.9:9000/collect';

const prime = {
  id: 'prime',
  protocol: 'sync-post',
  baseUrl: HOME,
  apiKey: SECRET,
  tier: 1,
  priceLadder: [50],
};
const { apiKey: _secret, ...primeWithoutKey } = prime;

/** Issue 40, point 2 (ADR 0024): a buyer's credential is bound to its address, and its address is an admin's. */
describe('buyer addresses and credentials', () => {
  const schema = testSchema('buyeraddr');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const folder = mkdtempSync(path.join(tmpdir(), 'buyer-addresses-'));
  let db: Kysely<Database>;
  let t: TestApp;
  let cookies: Map<string, string>;

  const call = (role: 'manager' | 'admin', method: string, route: string, payload?: unknown) =>
    t.app.inject({
      method: method as 'GET',
      url: route,
      ...(payload !== undefined ? { payload: payload as object } : {}),
      // As the console sends every request (the cross-site guard, ADR 0025).
      headers: { cookie: cookies.get(role)!, 'x-requested-with': 'console' },
    });
  const newest = async () => (await currentBuyerConfig(db, new FieldCipher(t.env.FIELD_ENCRYPTION_KEYS)))!;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    const file = path.join(folder, 'buyers.json');
    writeFileSync(file, JSON.stringify({ timeZone: 'America/New_York', buyers: [prime] }));
    t = await startTestApp({
      env: {
        DATABASE_URL: url,
        BUYERS_FILE: file,
        RATE_LIMIT_MAX: '100000',
        // Loopback and the other private ranges are refused here; one private range is allowed.
        BUYER_PRIVATE_RANGES: '192.168.77.0/24',
      },
    });
    cookies = await operatorCookies(t.app, 'buyer-addresses.test');
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
    rmSync(folder, { recursive: true, force: true });
  });

  it('refuses a manager who moves a buyer to another address, and keeps the buyer and its credential as they were', async () => {
    expect((await call('manager', 'GET', API)).statusCode).toBe(200);
    const moved = await call('manager', 'PUT', `${API}/prime`, { ...primeWithoutKey, baseUrl: ELSEWHERE });
    expect(moved.statusCode, moved.body).toBe(403);
    expect(moved.json().error.message).toBe(
      'Only an admin adds a buyer or changes a buyer’s address (baseUrl) or credential (apiKey).',
    );
    // Nor through an import, nor by adding a buyer, nor by entering a credential.
    const imported = await call('manager', 'POST', `${API}/import`, {
      timeZone: 'America/New_York',
      buyers: [{ ...primeWithoutKey, baseUrl: ELSEWHERE }],
    });
    expect(imported.statusCode).toBe(403);
    expect(
      (await call('manager', 'POST', API, { ...primeWithoutKey, id: 'mine', baseUrl: ELSEWHERE })).statusCode,
    ).toBe(403);
    expect((await call('manager', 'PUT', `${API}/prime`, { ...prime, apiKey: 'a-new-key' })).statusCode).toBe(
      403,
    );
    const config = await newest();
    expect(config.version).toBe(1);
    expect(config.file.buyers[0]).toMatchObject({ baseUrl: HOME, apiKey: SECRET });

    // A manager still edits the other settings, and pauses and resumes.
    const edited = await call('manager', 'PUT', `${API}/prime`, { ...primeWithoutKey, priceLadder: [60] });
    expect(edited.statusCode, edited.body).toBe(200);
    expect((await call('manager', 'POST', `${API}/prime/pause`)).statusCode).toBe(200);
    expect((await call('manager', 'POST', `${API}/prime/resume`)).statusCode).toBe(200);
    expect((await newest()).file.buyers[0]).toMatchObject({
      baseUrl: HOME,
      apiKey: SECRET,
      priceLadder: [60],
    });
  });

  it('drops the credential when an admin moves a buyer to another origin, until an admin enters one again', async () => {
    // Another path on the same origin keeps the credential.
    const samePlace = await call('admin', 'PUT', `${API}/prime`, {
      ...primeWithoutKey,
      baseUrl: 'http://198.51.100.20:8443/v2/prime',
    });
    expect(samePlace.statusCode, samePlace.body).toBe(200);
    expect(samePlace.json().buyers[0]).toMatchObject({ hasApiKey: true, needsKey: false });

    const moved = await call('admin', 'PUT', `${API}/prime`, { ...primeWithoutKey, baseUrl: ELSEWHERE });
    expect(moved.statusCode, moved.body).toBe(200);
    expect(moved.json().buyers[0]).toMatchObject({ baseUrl: ELSEWHERE, hasApiKey: false, needsKey: true });
    expect((await newest()).file.buyers[0]!.apiKey).toBeUndefined();
    const versions = (await call('manager', 'GET', `${API}/versions`)).json().versions;
    expect(versions[0].summary).toBe(
      'updated prime: baseUrl; credential dropped (moved to another origin): prime',
    );
    const health = (await call('manager', 'GET', `${API}/health`)).json();
    expect(health.buyers[0]).toMatchObject({ buyer: 'prime', needsKey: true });
    // No test lead goes to the new address while the buyer needs its key.
    const test = await call('manager', 'POST', `${API}/prime/test`);
    expect(test.statusCode).toBe(409);
    expect(test.json().error.message).toMatch(/^prime needs its key/);

    // An edit by a manager meanwhile keeps it waiting for its key.
    await call('manager', 'PUT', `${API}/prime`, {
      ...primeWithoutKey,
      baseUrl: ELSEWHERE,
      priceLadder: [70],
    });
    expect((await newest()).keysNeeded).toEqual(['prime']);

    const keyed = await call('admin', 'PUT', `${API}/prime`, {
      ...primeWithoutKey,
      baseUrl: ELSEWHERE,
      apiKey: 'prime-key-for-its-new-address',
    });
    expect(keyed.statusCode, keyed.body).toBe(200);
    expect(keyed.json().buyers[0]).toMatchObject({ hasApiKey: true, needsKey: false });
    expect(keyed.body).not.toContain('prime-key-for-its-new-address');
  });

  it('refuses loopback, link-local and private addresses, names resolving there included, unless their range is allowed', async () => {
    const moveTo = (baseUrl: string) => call('admin', 'PUT', `${API}/prime`, { ...primeWithoutKey, baseUrl });
    for (const [baseUrl, message] of [
      ['http://127.0.0.1:4010/buyers/prime', '127.0.0.1 is a loopback, link-local or private address'],
      ['http://169.254.169.254/latest', '169.254.169.254 is a loopback, link-local or private address'],
      ['http://10.1.2.3/buyers/prime', '10.1.2.3 is a loopback, link-local or private address'],
      ['http://[::1]:4010/buyers/prime', '::1 is a loopback, link-local or private address'],
      ['http://[fd00::5]/buyers/prime', 'fd00::5 is a loopback, link-local or private address'],
      ['http://[::ffff:10.0.0.1]/buyers/prime', '::ffff:a00:1 is a loopback, link-local or private address'],
      ['http://localhost:4010/buyers/prime', 'localhost resolves to'],
    ]) {
      const refused = await moveTo(baseUrl!);
      expect(refused.statusCode, baseUrl).toBe(400);
      expect(refused.json().error.fields.baseUrl, baseUrl).toContain(message);
    }
    const added = await call('admin', 'POST', API, {
      ...primeWithoutKey,
      id: 'local',
      baseUrl: 'http://10.0.0.8/x',
    });
    expect(added.json().error.fields).toEqual({
      baseUrl:
        '10.0.0.8 is a loopback, link-local or private address: buyers are called there only when ' +
        'BUYER_PRIVATE_RANGES lists its range.',
    });
    const version = (await newest()).version;
    // The allowed range is accepted.
    const allowed = await moveTo('http://192.168.77.5:4010/buyers/prime');
    expect(allowed.statusCode, allowed.body).toBe(200);
    expect((await newest()).version).toBe(version + 1);
  });
});
