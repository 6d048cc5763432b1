// Buyers managed live (issue 33, ADR 0022): how long a buyer's pause takes to reach every worker. The built BFF
// and two built workers on a private redis-server and the machine's PostgreSQL (TEST_DATABASE_URL, a schema of
// its own, dropped after); 20 pauses (each followed by its resume), each timed from the API's answer to the
// pause until the last worker notes that it runs that version (the workers' applied-version hash, ADR 0022).
// Baseline, same run: a bare Redis PUBLISH from the benchmark reaching two subscribers of its own, the floor of
// any change message. Goal (docs/adr/0028): p95 over that floor ≤ a quarter of the workers' poll interval
// (BUYERS_POLL_MS): a change must arrive by its message, since one caught only by the poll lands, evenly spread,
// anywhere in the interval. The issue's 5 s cannot be missed while the poll runs every 2 s.
// BENCH_SABOTAGE=buyer-pause gives the BFF another key prefix: it publishes where no worker listens.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { migrate, openDatabase } from '@funnel/db/database';
import { buyerWorkers } from '@funnel/server-runtime/buyer-config-signal';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { sabotaged, smoke } from './lib/bench-options.js';
import { withServices } from './lib/processes.js';
import { fmt, report } from './lib/report.js';
import { benchSecrets, redisClient, startBff, startRedis, startWorker } from './lib/services.js';
import { percentile } from './lib/stats.js';

const PAUSES = smoke ? 3 : 20;
const WORKERS = 2;
const POLL_MS = 2000;
const KEY_PREFIX = 'bench:';
const TOKEN = randomBytes(24).toString('hex');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

const schema = testSchema('bench_pause');
const db = openDatabase({ url: testDatabaseUrl(), schema });
await migrate(db, schema);
const databaseUrl = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
const folder = mkdtempSync(path.join(tmpdir(), 'bench-pause-'));
const buyersFile = path.join(folder, 'buyers.json');
writeFileSync(
  buyersFile,
  JSON.stringify({
    timeZone: 'America/New_York',
    buyers: [
      {
        id: 'first',
        protocol: 'sync-post',
        baseUrl: 'http://127.0.0.1:9/buyers/first',
        tier: 1,
        priceLadder: [0],
      },
    ],
  }),
);

/** Waits until every one of `count` workers notes `version` or later; answers when the last one applied it. */
async function lastApplied(
  redis: ReturnType<typeof redisClient>,
  version: number,
  count: number,
): Promise<number> {
  for (let i = 0; i < 20_000; i++) {
    const applied = await buyerWorkers(redis, KEY_PREFIX, Date.now());
    const caughtUp = applied.filter((w) => w.version >= version);
    if (caughtUp.length >= count) return Math.max(...caughtUp.map((w) => w.appliedAt));
    await sleep(2);
  }
  throw new Error(`the workers did not reach version ${version}`);
}

/** One PUBLISH from the benchmark to two subscribers of its own: ms until the second one has it. */
async function publishFloor(url: string): Promise<number[]> {
  const publisher = redisClient(url);
  const subscribers = [redisClient(url), redisClient(url)];
  await Promise.all(subscribers.map((s) => s.subscribe('bench:floor')));
  const times: number[] = [];
  for (let i = 0; i < PAUSES; i++) {
    const started = performance.now();
    const heard = subscribers.map((s) => new Promise((resolve) => s.once('message', resolve)));
    await publisher.publish('bench:floor', String(i));
    await Promise.all(heard);
    times.push(performance.now() - started);
  }
  await Promise.all([publisher, ...subscribers].map((c) => c.quit()));
  return times;
}

try {
  await withServices(async (track) => {
    const redis = track(await startRedis());
    const secrets = benchSecrets();
    const common = { DATABASE_URL: databaseUrl, BUYERS_FILE: buyersFile };
    const bffEnv = { ...common, ADMIN_API_TOKEN: TOKEN };
    const bff = track(
      await startBff({
        redisUrl: redis.url,
        secrets,
        env: sabotaged('buyer-pause') ? { ...bffEnv, REDIS_KEY_PREFIX: 'sabotaged:' } : bffEnv,
      }),
    );
    const workerEnv = { ...common, BUYERS_POLL_MS: String(POLL_MS) };
    for (let i = 0; i < WORKERS; i++) track(await startWorker(redis.url, KEY_PREFIX, secrets, workerEnv));
    const client = redisClient(redis.url);
    const call = async (route: string): Promise<number> => {
      const response = await fetch(`${bff.url}/api/v1/admin/buyers${route}`, {
        method: route ? 'POST' : 'GET',
        headers: { authorization: `Bearer ${TOKEN}` },
      });
      if (!response.ok) throw new Error(`${route}: ${response.status} ${await response.text()}`);
      return ((await response.json()) as { version: number }).version;
    };
    await lastApplied(client, await call(''), WORKERS);

    const fromAnswer: number[] = [];
    const resumes: number[] = [];
    // The workers stamp the time they applied a version with the same machine clock.
    const timed = async (route: string) => {
      const version = await call(route);
      const answered = Date.now();
      return Math.max(0, (await lastApplied(client, version, WORKERS)) - answered);
    };
    for (let i = 0; i < PAUSES; i++) {
      fromAnswer.push(await timed('/first/pause'));
      resumes.push(await timed('/first/resume'));
    }
    await client.quit();
    const floor = await publishFloor(redis.url);
    const p95 = percentile(fromAnswer, 95);
    const resumeP95 = percentile(resumes, 95);
    const floorP95 = percentile(floor, 95);
    const overFloor = (ms: number) => ({
      of: 'over the floor',
      measured: ms - floorP95,
      op: '<=' as const,
      limit: POLL_MS / 4,
      unit: ' ms',
    });
    report({
      measure: `buyer pause → last of ${WORKERS} workers applying it, p50 (${PAUSES} pauses)`,
      product: fmt.ms(percentile(fromAnswer, 50)),
      baseline: fmt.ms(percentile(floor, 50)),
    });
    report({
      measure: `buyer resume → last of ${WORKERS} workers applying it, p95 (${PAUSES} resumes, poll every ${POLL_MS} ms)`,
      product: fmt.ms(resumeP95),
      baseline: fmt.ms(floorP95),
      ratio: `+${fmt.ms(resumeP95 - floorP95)}`,
      goals: [overFloor(resumeP95)],
    });
    report({
      measure: `buyer pause → last of ${WORKERS} workers applying it, p95 (${PAUSES} pauses, poll every ${POLL_MS} ms)`,
      product: fmt.ms(p95),
      baseline: fmt.ms(floorP95),
      ratio: `+${fmt.ms(p95 - floorP95)}`,
      goals: [overFloor(p95)],
    });
  });
} finally {
  await db.destroy();
  await dropSchema(schema);
  rmSync(folder, { recursive: true, force: true });
}
