// What the operator audit log (issue 33, ADR 0021) costs a console request: the same operator GET, with a signed-in
// operator's session cookie, through the whole BFF (app.inject: routing, session, role, validation, handler,
// serialisation), with its audit entry appended to PostgreSQL before the handler, against the same app built with
// the audit off (`operatorAudit: false`, an option of buildApp, not of the environment). Both apps run side by
// side on the same Redis and PostgreSQL and take the requests in turn (A, B, A, B, …), so a busy moment of the
// shared machine falls on both. Two requests: a lead's postback log (one Redis read, so the INSERT is a large
// share of it: the worst case for the ratio) and the funnel report (a PostgreSQL query).
// Goals: a console request is paced by a person, and the entry is committed (synchronous_commit on) so it
// survives a crash: a few milliseconds are its price. Median ≤ +5 ms, p99 ≤ +50 ms.
// Uses the machine's PostgreSQL (TEST_DATABASE_URL) in a schema of its own, dropped after, and REDIS_URL.
// BENCH_SABOTAGE=audit-cost adds, in that schema, a BEFORE INSERT trigger on operator_audit standing for a
// synchronous copy of each entry to a remote archive: 20 ms an entry, 200 ms every 50th (the archive flushing its
// batch). Only the audited app writes entries, so the app without the audit is untouched; both goals must fail
// (median about +20 ms, p99 about +200 ms).
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { sql } from 'kysely';
import { pino } from 'pino';
import { migrate, openDatabase } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { deleteKeys } from '@funnel/testing/redis-keys';
import { buildApp } from '../apps/bff/src/app.js';
import { loadEnv } from '../apps/bff/src/env.js';
import { loadReferenceData } from '../apps/bff/src/reference-data/reference-data.js';
import { rounds, sabotaged, smoke } from './lib/bench-options.js';
import { fmt, report } from './lib/report.js';
import { median, percentile } from './lib/stats.js';

/** Requests per app per round, after the warm-up. */
const REQUESTS = smoke ? 100 : 2_000;
const WARM_UP = smoke ? 20 : 200;
const TOKEN = randomBytes(24).toString('hex');
const PASSWORD = 'a benchmark operator passphrase';
const REQUESTS_MEASURED = [
  ['postback log', '/api/v1/admin/postbacks?leadId=benchbenchbenchbench01'],
  ['funnel report', '/api/v1/admin/reports/funnel?from=2026-11-01&to=2026-11-07'],
] as const;

const schema = testSchema('bench_audit');
const db = openDatabase({ url: testDatabaseUrl(), schema });
await migrate(db, schema);
if (sabotaged('audit-cost')) {
  // The bad product: every entry waits on a remote archive before it is written (see the header).
  await sql`
    create function bench_archive_entry() returns trigger language plpgsql as $$
    begin
      perform pg_sleep(case when new.audit_id % 50 = 0 then 0.2 else 0.02 end);
      return new;
    end $$`.execute(db);
  await sql`
    create trigger bench_archive_entry before insert on operator_audit
    for each row execute function bench_archive_entry()`.execute(db);
}
const logger = pino({ level: 'silent' });
const referenceData = await loadReferenceData(process.env.REFERENCE_DATA_DIR, logger);
const keyPrefix = `bench-audit-${randomBytes(4).toString('hex')}:`;
const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const env = loadEnv({
  NODE_ENV: 'test',
  REDIS_URL: redisUrl,
  REDIS_KEY_PREFIX: keyPrefix,
  FIELD_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
  COOKIE_SECRETS: randomBytes(32).toString('hex'),
  SUPPRESSION_HASH_SECRET: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'silent',
  RATE_LIMIT_MAX: '1000000',
  ADMIN_API_TOKEN: TOKEN,
  // The cost measured is the audit's: the bench admin signs in on a password alone (ADR 0023's setting).
  OPERATOR_SECOND_FACTOR_ROLES: 'none',
  DATABASE_URL: `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
});
type App = Awaited<ReturnType<typeof buildApp>>;

/** An admin account, set up and signed in as a person would be; answers the session cookie. */
async function signedInOperator(app: App): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/admin/accounts',
    headers: { authorization: `Bearer ${TOKEN}` },
    payload: { email: 'bench@example.com', displayName: 'Bench', role: 'admin' },
  });
  const token = (created.json() as { setupPath: string }).setupPath.split('#')[1];
  await app.inject({
    method: 'POST',
    url: '/api/v1/admin/account-setup',
    payload: { token, password: PASSWORD },
  });
  const session = await app.inject({
    method: 'POST',
    url: '/api/v1/admin/session',
    payload: { email: 'bench@example.com', password: PASSWORD },
  });
  const cookie = session.cookies.find((c) => c.name === 'funnel_operator');
  if (!cookie) throw new Error(`no session: ${session.statusCode} ${session.body}`);
  return `${cookie.name}=${cookie.value}`;
}

/** Microseconds of one request. */
async function timed(app: App, url: string, cookie: string): Promise<number> {
  const started = performance.now();
  const response = await app.inject({ url, headers: { cookie } });
  const elapsed = (performance.now() - started) * 1000;
  if (response.statusCode !== 200) throw new Error(`${url}: ${response.statusCode} ${response.body}`);
  return elapsed;
}

const audited = await buildApp({ env, logger, referenceData });
const unaudited = await buildApp({ env, logger, referenceData, operatorAudit: false });
const redis = new Redis(redisUrl);
try {
  await Promise.all([audited.ready(), unaudited.ready()]);
  // One session for both: they share Redis, as two BFF instances do.
  const cookie = await signedInOperator(audited);
  for (const [name, url] of REQUESTS_MEASURED) {
    const on: Array<{ median: number; p99: number }> = [];
    const off: Array<{ median: number; p99: number }> = [];
    for (let round = 0; round < rounds; round++) {
      const times = { on: [] as number[], off: [] as number[] };
      for (let i = 0; i < WARM_UP + REQUESTS; i++) {
        // Which goes first alternates too, so neither always follows the other's INSERT.
        const order = i % 2 === 0 ? (['off', 'on'] as const) : (['on', 'off'] as const);
        for (const which of order) {
          const elapsed = await timed(which === 'on' ? audited : unaudited, url, cookie);
          if (i >= WARM_UP) times[which].push(elapsed);
        }
      }
      on.push({ median: median(times.on), p99: percentile(times.on, 99) });
      off.push({ median: median(times.off), p99: percentile(times.off, 99) });
    }
    for (const [figure, goalMs] of [
      ['median', 5],
      ['p99', 50],
    ] as const) {
      const withMs = median(on.map((r) => r[figure])) / 1000;
      const withoutMs = median(off.map((r) => r[figure])) / 1000;
      report({
        measure: `${name}, ${figure} per request, with its audit entry vs without`,
        product: fmt.ms(withMs),
        baseline: fmt.ms(withoutMs),
        ratio: `+${(withMs - withoutMs).toFixed(2)} ms (${fmt.ratio(withMs / withoutMs)})`,
        goals: [{ of: 'added', measured: withMs - withoutMs, op: '<=', limit: goalMs, unit: ' ms' }],
      });
    }
  }
  const entries = await db
    .selectFrom('operator_audit')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('method', '=', 'GET')
    .executeTakeFirstOrThrow();
  const expected = REQUESTS_MEASURED.length * rounds * (REQUESTS + WARM_UP);
  console.log(`audit entries written by the audited app: ${entries.n} (expected ${expected})`);
  if (Number(entries.n) !== expected)
    throw new Error('the audit-off app wrote entries, or the audited one missed some');
} finally {
  await Promise.all([audited.close(), unaudited.close()]);
  await deleteKeys(redis, keyPrefix);
  redis.disconnect();
  await db.destroy();
  await dropSchema(schema);
}
