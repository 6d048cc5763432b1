import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { logPrivacyRequests } from '@funnel/db/privacy-request-log';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { openPrivacyRequest } from '@funnel/lead-store/suppression-list';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { FUNNEL_NOW } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-'.padEnd(40, 'p');
const UNSUBSCRIBE = { email: 'log.person@example.com', phone: '(212)-555-0199', reason: 'SPAM' };

describe('GET /api/v1/admin/privacy-requests', () => {
  const schema = testSchema('bffprivlog');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  let db: Kysely<Database>;
  let t: TestApp;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    t = await startTestApp({ now: () => FUNNEL_NOW, env: { DATABASE_URL: url, ADMIN_API_TOKEN: TOKEN } });
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
  });

  const read = (query: string, token = TOKEN) =>
    t.app.inject({
      method: 'GET',
      url: `/api/v1/admin/privacy-requests?${query}`,
      ...(token ? { headers: { authorization: `Bearer ${token}` } } : {}),
    });

  it('reads the requests from PostgreSQL, opened, once drained from Redis', async () => {
    const sent = await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/unsubscribe',
      payload: UNSUBSCRIBE,
    });
    expect(sent.statusCode).toBe(200);
    expect((await read('from=2020-01-01&to=2099-12-31')).json()).toEqual({ requests: [] });

    // What the worker's drain writes for the stream entry (apps/worker/test/privacy-log-drain covers the drain).
    const [[, fields]] = (await t.redis.xrange(t.app.suppressionList.streamKey, '-', '+')) as [
      [string, string[]],
    ];
    const entry = Object.fromEntries(fields.flatMap((v, i) => (i % 2 === 0 ? [[v, fields[i + 1]!]] : [])));
    const today = entry.at!.slice(0, 10);
    const sealer = new FieldCipher(t.env.FIELD_ENCRYPTION_KEYS);
    await logPrivacyRequests(
      db,
      [
        {
          requestId: entry.requestId!,
          type: entry.type!,
          source: entry.source!,
          at: entry.at!,
          contactHashes: [],
          details: { reason: 'SPAM' },
          request: openPrivacyRequest(sealer, entry),
        },
      ],
      sealer,
    );

    expect((await read(`from=${today}&to=${today}`, '')).statusCode).toBe(401);
    const log = await read(`from=${today}&to=${today}`);
    expect(log.statusCode).toBe(200);
    expect(log.json()).toEqual({
      requests: [
        {
          requestId: entry.requestId,
          type: 'unsubscribe',
          source: 'form',
          at: entry.at,
          details: { reason: 'SPAM' },
          request: { email: UNSUBSCRIBE.email, phone: '2125550199', reason: 'SPAM' },
        },
      ],
    });
    expect((await read(`from=${today}&to=2020-01-01`)).statusCode).toBe(400);
  });

  it('answers 503 in the error shape, never a 500, while PostgreSQL cannot be reached, as the reports do', async () => {
    // Nothing listens on port 1: every read fails to connect.
    const down = await startTestApp({
      now: () => FUNNEL_NOW,
      env: { DATABASE_URL: 'postgres://postgres@127.0.0.1:1/test', ADMIN_API_TOKEN: TOKEN },
    });
    try {
      for (const url of [
        '/api/v1/admin/privacy-requests?from=2026-01-01&to=2026-01-31',
        '/api/v1/admin/reports/funnel?from=2026-01-01&to=2026-01-31',
      ]) {
        const answer = await down.app.inject({
          method: 'GET',
          url,
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(answer.statusCode, url).toBe(503);
        expect(answer.json()).toMatchObject({ error: { code: 'UNAVAILABLE' } });
      }
    } finally {
      await down.close();
    }
  });
});
