// Routes written before ADR 0021 guard themselves with `addHook('onRequest', app.requireAdmin | requireOperator)`:
// those hooks now mean the admin and viewer roles, with the same 401/403 and audit as `operatorRoute`.
import Fastify, { type FastifyInstance } from 'fastify';
import { randomBytes } from 'node:crypto';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { inject } from 'vitest';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import adminAuth from '../src/plugins/admin-auth.js';
import errorHandler from '../src/plugins/error-handler.js';
import leadSession from '../src/plugins/lead-session.js';
import redis from '../src/plugins/redis.js';

const TOKEN = 'legacy-hooks-'.padEnd(48, 'h');
const schema = testSchema('oplegacy');
const keyPrefix = testKeyPrefix('legacy');
let db: Kysely<Database>;
let app: FastifyInstance;

beforeAll(async () => {
  db = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  app = Fastify();
  await app.register(errorHandler);
  await app.register(redis, { connection: { REDIS_URL: inject('redisUrl') } as never });
  await app.register(leadSession, {
    secrets: [randomBytes(32).toString('hex')],
    secure: true,
    maxAgeSeconds: 60,
  });
  await app.register(adminAuth, {
    token: TOKEN,
    db,
    sealer: new FieldCipher([{ id: 't', key: randomBytes(32) }]),
    keyPrefix,
    secure: true,
    idleMs: 60_000,
    absoluteMs: 3_600_000,
    issuer: 'test',
    secondFactorRoles: ['admin', 'manager'],
    now: () => new Date(),
  });
  await app.register(async (scoped) => {
    scoped.addHook('onRequest', scoped.requireAdmin);
    scoped.get('/legacy/admin', async () => ({ ok: true }));
  });
  await app.register(async (scoped) => {
    scoped.addHook('onRequest', scoped.requireOperator);
    scoped.get('/legacy/read', async () => ({ ok: true }));
  });
  await app.ready();
});
afterAll(async () => {
  await deleteKeys(app.redis, keyPrefix);
  await app.close();
  await db.destroy();
  await dropSchema(schema);
});

it('holds each legacy route to its role: token and sessions in, signed-out 401, a lower role 403, all audited', async () => {
  for (const url of ['/legacy/admin', '/legacy/read']) {
    expect((await app.inject({ url })).statusCode).toBe(401);
    const allowed = await app.inject({ url, headers: { authorization: `Bearer ${TOKEN}` } });
    expect(allowed.statusCode).toBe(200);
  }
  // A viewer's session reads, but is refused the admin route with 403, audited as denied.
  const id = await app.operatorSessions.start(
    { accountId: 'viewer-1', email: 'vic@example.com', role: 'viewer' },
    Date.now(),
  );
  const cookie = `funnel_operator=${id}`;
  expect((await app.inject({ url: '/legacy/read', headers: { cookie } })).statusCode).toBe(200);
  const refused = await app.inject({ url: '/legacy/admin', headers: { cookie } });
  expect(refused.statusCode).toBe(403);
  expect(refused.json()).toMatchObject({ error: { code: 'FORBIDDEN' } });
  const entries = await db
    .selectFrom('operator_audit')
    .select(['actor', 'action', 'outcome'])
    .orderBy('audit_id')
    .execute();
  expect(entries).toEqual([
    { actor: 'api-token', action: 'GET /legacy/admin', outcome: 'allowed' },
    { actor: 'api-token', action: 'GET /legacy/read', outcome: 'allowed' },
    { actor: 'vic@example.com', action: 'GET /legacy/read', outcome: 'allowed' },
    { actor: 'vic@example.com', action: 'GET /legacy/admin', outcome: 'denied' },
  ]);
});
