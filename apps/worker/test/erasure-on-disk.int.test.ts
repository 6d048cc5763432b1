// Issue 32's done-when: a deletion request reaches the disk. Real processes (lender sandbox, BFF, worker, a
// redis-server of the test's own with AOF and RDB save points, a PostgreSQL schema of the test's own) walk a
// funnel lead and a partner lead carrying canary contact data to an outcome. Before the erasure no canary is in
// clear in Redis or its files; after the deletion requests and the stated bound (3 × ERASURE_REWRITE_INTERVAL_MS,
// seconds here) no canary is anywhere: Redis keys of every type, the AOF and RDB files, PostgreSQL, the log; nor
// any sealed value of those leads that the key ring still opens. Positive controls first: a third canary planted
// in clear in a Redis key and a PostgreSQL table must be found there and in the AOF, and each lead's sealed
// answers must be found in Redis and its files before the erasure; else "nothing found" would prove nothing.
import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_VERSION } from '@funnel/contracts/consent';
import { SERVER_TO_CLIENT } from '@funnel/contracts/fields';
import { STEPS } from '@funnel/contracts/steps';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { FICTITIOUS_BRAND_SETTINGS } from '@funnel/testing/brand-settings';
import { testEnv } from '@funnel/testing/env';
import { partnerKey, partnerLeadBody } from '@funnel/testing/partner-lead';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import {
  freePort,
  startApp,
  startRedisServer,
  type AppProcess,
  type RedisServer,
} from '@funnel/testing/processes';

const PREFIX = 'erasure:';
const INTERVAL_MS = 2000;
/** The bound docs/operating.md states, in this test's interval: an erasure leaves the files within 3 intervals. */
const BOUND_MS = 3 * INTERVAL_MS;
const ADMIN_TOKEN = `admin-${randomBytes(16).toString('hex')}`;
const partner = partnerKey('erasure', 600_000);
const keyId = 'erasure';
const encryptionKey = randomBytes(32);
const secrets = {
  FIELD_ENCRYPTION_KEYS: `${keyId}:${encryptionKey.toString('base64')}`,
  COOKIE_SECRETS: randomBytes(32).toString('hex'),
  SUPPRESSION_HASH_SECRET: randomBytes(32).toString('hex'),
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** One person's canary contact data, and every spelling of it a scan looks for. */
interface Canary {
  label: string;
  answers: Record<string, string>;
  ip: string;
  userAgent: string;
  needles: RegExp[];
}

function canary(label: string, tag: string, area: string, ip: string): Canary {
  const answers = {
    firstName: `Quill${tag}`,
    lastName: `Brontide${tag}`,
    email: `canary.${tag.toLowerCase()}@example.com`,
    phone: `${area}5550177`,
    employerPhone: `${area}5550188`,
    streetAddress: `4821 Canary${tag} Ln`,
    employerName: `Zephyr${tag} Logistics`,
  };
  const userAgent = `CanaryAgent${tag}/1.0`;
  const needles = [
    ...Object.values(answers).map((v) => new RegExp(v.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'i')),
    new RegExp(`${area}\\D{0,2}555\\D?0177`),
    new RegExp(`${area}\\D{0,2}555\\D?0188`),
    new RegExp(ip.replace(/\./g, '\\.')),
    new RegExp(userAgent.replace(/[./]/g, '\\$&'), 'i'),
  ];
  return { label, answers, ip, userAgent, needles };
}

const funnelPerson = canary('funnel', 'Fnlxq', '212', '198.51.100.77');
const partnerPerson = canary('partner', 'Prtvz', '312', '198.51.100.88');
const people = [funnelPerson, partnerPerson];
/** Planted in clear on purpose: the scans must find it, or they are blind. */
const controlPerson = canary('control', 'Ctrlk', '415', '198.51.100.99');

function leadBody(person: Canary, ssn: string): Record<string, unknown> {
  const example = partnerLeadBody();
  return {
    ...example,
    ...person.answers,
    socialSecurityNumber: ssn,
    consent: { ...(example.consent as object), ip: person.ip, userAgent: person.userAgent },
  };
}

interface Hit {
  where: string;
  person: string;
  needle: string;
}

function hitsIn(where: string, text: string, among: readonly Canary[] = people): Hit[] {
  return among.flatMap((person) =>
    person.needles
      .filter((n) => n.test(text))
      .map((n) => ({ where, person: person.label, needle: n.source })),
  );
}

/** Every key of the test's Redis by type, as a raw dump would show it. */
async function redisText(redis: Redis): Promise<Array<{ where: string; text: string }>> {
  const out: Array<{ where: string; text: string }> = [];
  for (const key of await redis.keys('*')) {
    const type = await redis.type(key);
    let text = key;
    if (type === 'string') text += ` ${await redis.get(key)}`;
    if (type === 'hash') text += ` ${JSON.stringify(await redis.hgetall(key))}`;
    if (type === 'set') text += ` ${(await redis.smembers(key)).join(' ')}`;
    if (type === 'zset') text += ` ${(await redis.zrange(key, 0, '-1')).join(' ')}`;
    if (type === 'list') text += ` ${(await redis.lrange(key, 0, -1)).join(' ')}`;
    if (type === 'stream') text += ` ${JSON.stringify(await redis.xrange(key, '-', '+'))}`;
    out.push({ where: `redis ${type} ${key}`, text });
  }
  return out;
}

/** Every file Redis keeps (AOF base and increments, manifest, RDB), read as Latin-1 so any byte is text. */
function redisFiles(dir: string): Array<{ where: string; text: string }> {
  const files: string[] = [];
  const walk = (d: string) => {
    for (const name of readdirSync(d)) {
      const full = path.join(d, name);
      if (statSync(full).isDirectory()) walk(full);
      else files.push(full);
    }
  };
  walk(dir);
  return files.map((file) => ({
    where: `file ${path.relative(dir, file)}`,
    text: readFileSync(file).toString('latin1'),
  }));
}

/** Every row of every table in the test's schema, as JSON. */
async function postgresText(url: string, schema: string): Promise<Array<{ where: string; text: string }>> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const tables = await client.query<{ table_name: string }>(
      'select table_name from information_schema.tables where table_schema = $1',
      [schema],
    );
    const out: Array<{ where: string; text: string }> = [];
    for (const { table_name } of tables.rows) {
      const rows = await client.query(`select row_to_json(t)::text as j from "${schema}"."${table_name}" t`);
      out.push({
        where: `postgres ${table_name}`,
        text: rows.rows.map((r: { j: string }) => r.j).join('\n'),
      });
    }
    return out;
  } finally {
    await client.end();
  }
}

/**
 * Sealed values of the canary leads: every `enc:v1:` token in `text` that the key ring opens under one of the
 * leads' contexts (lead id and field, or the retained consent's, or the archive's).
 */
function sealedCopies(where: string, text: string, leadIds: readonly string[]): Hit[] {
  const cipher = new FieldCipher([{ id: keyId, key: encryptionKey }]);
  const fields = [...Object.keys(SERVER_TO_CLIENT), '_consent', 'consent'];
  const hits: Hit[] = [];
  for (const token of new Set(text.match(/enc:v1:[\w-]+:[\w-]+:[\w-]+:[\w-]*/g) ?? [])) {
    for (const leadId of leadIds) {
      const contexts = [...fields.map((f) => `${leadId}:${f}`), leadId];
      if (
        contexts.some((context) => {
          try {
            cipher.open(token, context);
            return true;
          } catch {
            return false;
          }
        })
      )
        hits.push({ where, person: leadId, needle: 'sealed copy' });
    }
  }
  return hits;
}

describe('a deletion request reaches the disk', () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'erasure-redis-'));
  const schema = testSchema('erasure');
  const databaseUrl = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const processes: AppProcess[] = [];
  let redisServer: RedisServer;
  let redis: Redis;
  let bffUrl: string;
  let sandboxUrl: string;

  beforeAll(async () => {
    redisServer = await startRedisServer({ aofDir: dir, snapshots: true });
    redis = new Redis(redisServer.url, { maxRetriesPerRequest: null });
    const db = new pg.Client({ connectionString: testDatabaseUrl() });
    await db.connect();
    await db.query(`create schema "${schema}"`);
    await db.end();

    const sandboxPort = await freePort();
    sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    processes.push(
      await startApp({
        entry: 'apps/lender-sandbox/src/server.ts',
        env: { SANDBOX_PORT: String(sandboxPort), SANDBOX_PUBLIC_URL: sandboxUrl, SANDBOX_LOG_LEVEL: 'warn' },
        readyUrl: `${sandboxUrl}/healthz`,
      }),
    );
    const bffPort = await freePort();
    bffUrl = `http://127.0.0.1:${bffPort}`;
    processes.push(
      await startApp({
        entry: 'apps/bff/src/server.ts',
        env: {
          NODE_ENV: 'production',
          ...FICTITIOUS_BRAND_SETTINGS,
          LOG_LEVEL: 'debug',
          HOST: '127.0.0.1',
          PORT: String(bffPort),
          REDIS_URL: redisServer.url,
          REDIS_KEY_PREFIX: PREFIX,
          REFERENCE_DATA_DIR: testEnv.referenceDataDir,
          COOKIE_SECURE: 'false',
          TRUST_PROXY: 'true',
          ADMIN_API_TOKEN: ADMIN_TOKEN,
          PARTNER_API_KEYS: partner.entry,
          DATABASE_URL: databaseUrl,
          ...secrets,
        },
        readyUrl: `${bffUrl}/readyz`,
        timeoutMs: 60_000,
      }),
    );
    const workerPort = await freePort();
    processes.push(
      await startApp({
        entry: 'apps/worker/src/main.ts',
        env: {
          LOG_LEVEL: 'debug',
          REDIS_URL: redisServer.url,
          REDIS_KEY_PREFIX: PREFIX,
          LENDER_NETWORK_URL: sandboxUrl,
          POLL_INTERVAL_MS: '500',
          WORKER_METRICS_PORT: String(workerPort),
          ERASURE_REWRITE_INTERVAL_MS: String(INTERVAL_MS),
          DATABASE_URL: databaseUrl,
          ...secrets,
        },
        readyUrl: `http://127.0.0.1:${workerPort}/readyz`,
        timeoutMs: 60_000,
      }),
    );
  }, 120_000);

  afterAll(async () => {
    for (const p of processes.reverse()) await p.stop();
    await redis?.quit();
    await redisServer?.kill();
    await dropSchema(schema);
    rmSync(dir, { recursive: true, force: true });
  });

  it('finds no canary in clear before the erasure, and none in any form after it and the bound', async () => {
    // The funnel lead, step by step, from a browser at the canary IP with the canary user agent.
    const body = leadBody(funnelPerson, '219-09-9991');
    const browser = { 'x-forwarded-for': funnelPerson.ip, 'user-agent': funnelPerson.userAgent };
    const created = await fetch(`${bffUrl}/api/v1/lead`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...browser },
      body: JSON.stringify({ amount: body.amount, loanReason: body.loanReason, zipCode: body.zipCode }),
    });
    expect(created.status).toBe(201);
    const cookie = created.headers.getSetCookie()[0]!.split(';')[0]!;
    for (const step of STEPS) {
      const answer = Object.fromEntries(step.fields.filter((f) => f in body).map((f) => [f, body[f]]));
      const saved = await fetch(`${bffUrl}/api/v1/lead/steps/${step.name}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie, ...browser },
        body: JSON.stringify(answer),
      });
      expect(saved.status, `${step.name}: ${await saved.clone().text()}`).toBe(200);
    }
    const submitted = await fetch(`${bffUrl}/api/v1/lead/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, ...browser },
      body: JSON.stringify({
        button: 'REQUEST_CASH',
        consentVersion: CONSENT_VERSION,
        pagePath: '/apply/ssn',
      }),
    });
    expect(submitted.status).toBeLessThan(300);
    const funnelLeadId = decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;

    // The partner lead, server to server.
    const posted = await fetch(`${bffUrl}/api/v1/partner/leads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${partner.key}`, 'content-type': 'application/json' },
      body: JSON.stringify(leadBody(partnerPerson, '219-09-9992')),
    });
    expect(posted.status, await posted.clone().text()).toBe(202);
    const { leadId: partnerLeadId } = (await posted.json()) as { leadId: string };
    const leadIds = [funnelLeadId, partnerLeadId];

    // Both reach an outcome, and their consent reaches the archive in PostgreSQL.
    const deadline = Date.now() + 60_000;
    for (;;) {
      const outcomes = await Promise.all(leadIds.map((id) => redis.hget(`${PREFIX}lead:${id}`, '_outcome')));
      const final = outcomes.every((o) => o && !JSON.parse(o).outcome.startsWith('pending'));
      const archived = (await postgresText(databaseUrl, schema)).find(
        (t) => t.where === 'postgres consent_archive',
      );
      if (final && leadIds.every((id) => archived?.text.includes(id))) break;
      if (Date.now() > deadline) throw new Error(`leads not final/archived: ${outcomes.join(' | ')}`);
      await sleep(500);
    }
    // A snapshot taken now holds the leads, as one of Redis's save points would.
    await redis.bgsave();
    await sleep(1500);

    // Positive controls: what the scans below must see. The control canary, planted in clear, is found in its
    // key, in the AOF and in PostgreSQL; each lead's sealed answers are found in Redis and in its files.
    const controlKey = `${PREFIX}positive-control`;
    await redis.set(controlKey, JSON.stringify(controlPerson.answers));
    const control = new pg.Client({ connectionString: databaseUrl });
    await control.connect();
    await control.query(`create table "${schema}".positive_control (answers text)`);
    await control.query(`insert into "${schema}".positive_control values ($1)`, [
      JSON.stringify(controlPerson.answers),
    ]);
    const controlHits = [
      ...(await redisText(redis)),
      ...redisFiles(dir),
      ...(await postgresText(databaseUrl, schema)),
    ].flatMap((t) => hitsIn(t.where, t.text, [controlPerson]));
    expect(controlHits.some((h) => h.where === `redis string ${controlKey}`)).toBe(true);
    expect(controlHits.some((h) => /^file .*\.aof$/.test(h.where))).toBe(true);
    expect(controlHits.some((h) => h.where === 'postgres positive_control')).toBe(true);
    const sealedBefore = [...(await redisText(redis)), ...redisFiles(dir)].flatMap((t) =>
      sealedCopies(t.where, t.text, leadIds),
    );
    for (const id of leadIds) {
      expect(
        sealedBefore.some((h) => h.person === id && h.where.startsWith('redis ')),
        id,
      ).toBe(true);
      expect(
        sealedBefore.some((h) => h.person === id && h.where.startsWith('file ')),
        id,
      ).toBe(true);
    }
    await redis.del(controlKey);
    await control.query(`drop table "${schema}".positive_control`);
    await control.end();

    const before = [...(await redisText(redis)), ...redisFiles(dir)].flatMap((t) => hitsIn(t.where, t.text));
    expect(before, 'contact data in clear in Redis or its files before any erasure').toEqual([]);

    for (const person of people) {
      const erased = await fetch(`${bffUrl}/api/v1/admin/deletion-requests`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ email: person.answers.email, phone: person.answers.phone }),
      });
      expect(erased.status).toBe(200);
      expect(((await erased.json()) as { leadsDeleted: number }).leadsDeleted).toBe(1);
    }
    await sleep(BOUND_MS);
    // The worker rewrote the files (one pass for both requests), and said so.
    expect(processes.at(-1)!.output()).toMatch(/"result":"rewritten".*"msg":"erasure compaction"/);

    const everywhere = [
      ...(await redisText(redis)),
      ...redisFiles(dir),
      ...(await postgresText(databaseUrl, schema)),
      ...processes.map((p, i) => ({ where: `log of process ${i}`, text: p.output() })),
    ];
    const after = everywhere.flatMap((t) => [
      ...hitsIn(t.where, t.text),
      ...sealedCopies(t.where, t.text, leadIds),
    ]);
    expect(after, 'anything of the erased people left after the bound').toEqual([]);
  }, 180_000);
});
