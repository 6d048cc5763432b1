// What the operator audit log (issue 33, ADR 0021) costs a console request: the same admin request, through the
// whole BFF (app.inject: routing, auth, validation, handler, serialisation), with its audit entry appended to
// PostgreSQL before the handler, against the same app built with the audit off. The request is the postback log
// of one lead (a Redis read), so the audit INSERT is a large share of it: the worst case for the ratio.
// Goals: a console request is paced by a person, and the entry is committed (synchronous_commit on) so it
// survives a crash: a few milliseconds are its price. Median ≤ +5 ms, p99 ≤ +50 ms.
// Uses the machine's PostgreSQL (TEST_DATABASE_URL) in a schema of its own, dropped after, and REDIS_URL.
import { randomBytes } from 'node:crypto';
import { pino } from 'pino';
import { migrate, openDatabase } from '@funnel/db/database';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { buildApp } from '../apps/bff/src/app.js';
import { loadEnv } from '../apps/bff/src/env.js';
import { loadReferenceData } from '../apps/bff/src/reference-data/reference-data.js';
import { rounds, smoke } from './lib/bench-options.js';
import { fmt, report } from './lib/report.js';
import { median } from './lib/stats.js';

const REQUESTS = smoke ? 200 : 3_000;
const WARM_UP = 200;
const TOKEN = randomBytes(24).toString('hex');
const URL_PATH = '/api/v1/admin/postbacks?leadId=benchbenchbenchbench01';

const schema = testSchema('bench_audit');
const db = openDatabase({ url: testDatabaseUrl(), schema });
await migrate(db, schema);
const logger = pino({ level: 'silent' });
const referenceData = await loadReferenceData(process.env.REFERENCE_DATA_DIR, logger);
const env = loadEnv({
  NODE_ENV: 'test',
  REDIS_URL: process.env.REDIS_URL ?? 'redis://127.0.0.1:6379',
  REDIS_KEY_PREFIX: `bench-audit-${randomBytes(4).toString('hex')}:`,
  FIELD_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
  COOKIE_SECRETS: randomBytes(32).toString('hex'),
  SUPPRESSION_HASH_SECRET: randomBytes(32).toString('hex'),
  LOG_LEVEL: 'silent',
  ADMIN_API_TOKEN: TOKEN,
  DATABASE_URL: `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
});

/** Median and p99 microseconds of one request, made one after another. */
async function measure(audit: boolean): Promise<{ median: number; p99: number }> {
  const app = await buildApp({ env, logger, referenceData, operatorAudit: audit });
  await app.ready();
  try {
    const once = async () => {
      const response = await app.inject({ url: URL_PATH, headers: { authorization: `Bearer ${TOKEN}` } });
      if (response.statusCode !== 200) throw new Error(`${response.statusCode}: ${response.body}`);
    };
    for (let i = 0; i < WARM_UP; i++) await once();
    const times: number[] = [];
    for (let i = 0; i < REQUESTS; i++) {
      const started = performance.now();
      await once();
      times.push((performance.now() - started) * 1000);
    }
    times.sort((a, b) => a - b);
    return { median: median(times), p99: times[Math.floor(times.length * 0.99)]! };
  } finally {
    await app.close();
  }
}

try {
  const withAudit: Array<{ median: number; p99: number }> = [];
  const without: Array<{ median: number; p99: number }> = [];
  for (let round = 0; round < rounds; round++) {
    without.push(await measure(false));
    withAudit.push(await measure(true));
  }
  for (const [figure, goalMs] of [
    ['median', 5],
    ['p99', 50],
  ] as const) {
    const on = median(withAudit.map((r) => r[figure])) / 1000;
    const off = median(without.map((r) => r[figure])) / 1000;
    report({
      measure: `admin request, ${figure} latency, with its audit entry vs without`,
      product: fmt.ms(on),
      baseline: fmt.ms(off),
      ratio: `+${(on - off).toFixed(2)} ms`,
      goal: `≤ +${goalMs} ms`,
      pass: on - off <= goalMs,
    });
  }
  const entries = await db
    .selectFrom('operator_audit')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  console.log(`audit entries written: ${entries.n} (expected ${rounds * (REQUESTS + WARM_UP)})`);
} finally {
  await db.destroy();
  await dropSchema(schema);
}
