/**
 * The fault suite's evidence scenario (issue 40, point 9): real processes (BFF, a worker draining into PostgreSQL,
 * lender sandbox, a redis-server of its own) and bursts of funnel submits and partner posts, all fired at once,
 * with the BFF killed -9 a few milliseconds into each burst and started again; every client retries as a real one
 * does. Then it counts, in PostgreSQL, the decided leads without a `submitted` event, without an archived consent,
 * and the funnel leads whose archived consent is kept for less than CONSENT_RETENTION_DAYS, and prints one table.
 *
 * Run by scripts/fault-suite.ts (`npm run test:faults -- --only evidence --seed 2`); the seed picks the borrowers
 * and when in each burst the BFF dies. `short` is the shorter run for `npm test`. Fails unless the three counts
 * are 0, and when an accepted lead is lost or stuck.
 */
import { createHash, randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { migrate, openDatabase } from '@funnel/db/database';
import { faultSecrets, loopbackUrl, startFaultBff, startFaultSandbox, startFaultWorker } from './stack.js';
import {
  answerFunnelLead,
  borrowerLead,
  sendPartnerLead,
  submitFunnelLead,
} from '@funnel/testing/lead-traffic';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { RETENTION_DAYS, evidenceGaps } from './evidence-gaps.js';
import { freePort, startRedisServer, type AppProcess } from '@funnel/testing/processes';

const PREFIX = 'evidence:';
const FINAL = ['sold', 'rejected', 'no_lender'];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
/** A client's tries, 500 ms apart: as long as a BFF may take to start again on a loaded machine (3 minutes). */
const CLIENT_ATTEMPTS = 360;
/** How long each process may take to start, and the BFF to start again: the same 3 minutes. */
const START_TIMEOUT_MS = 180_000;

const apiKey = `fpk_${randomBytes(24).toString('base64url')}`;
const keyEntry = `evidence:aff-evidence:${createHash('sha256').update(apiKey).digest('hex')}:600000`;

/** A small seeded generator (mulberry32): the same seed, the same borrowers and kill times. */
function seeded(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Runs the scenario and prints its table; true when it passed. */
export async function runEvidence(short: boolean, seed = 1): Promise<boolean> {
  const BURSTS = 2;
  const FUNNEL_PER_BURST = short ? 30 : 100;
  const PARTNER_PER_BURST = short ? 20 : 100;
  const random = seeded(seed);
  // Borrowers of this seed's own range, so two seeds never share a borrower.
  let borrowers = seed * 100_000;
  const leadBody = () => borrowerLead((borrowers += 1));

  const schema = testSchema('faults_evidence');
  const databaseUrl = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const db = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  const redisServer = await startRedisServer();
  const redis = new Redis(redisServer.url, { maxRetriesPerRequest: null });
  redis.on('error', () => undefined);
  const processes: AppProcess[] = [];
  const secrets = faultSecrets('evidence');
  const t0 = Date.now();
  const log = (message: string) =>
    console.log(`[evidence +${((Date.now() - t0) / 1000).toFixed(1)}s] ${message}`);
  try {
    const [sandboxPort, workerPort, bffPort] = await Promise.all([freePort(), freePort(), freePort()]);
    const sandboxUrl = loopbackUrl(sandboxPort);
    const bffUrl = loopbackUrl(bffPort);
    const redisEnv = { REDIS_URL: redisServer.url, REDIS_KEY_PREFIX: PREFIX };
    const startBff = () =>
      startFaultBff({
        port: bffPort,
        redis: redisEnv,
        env: { DATABASE_URL: databaseUrl },
        partnerKeyEntry: keyEntry,
        deadlineMs: 60_000,
        secrets,
        timeoutMs: START_TIMEOUT_MS,
      });
    const [sandbox, firstBff, worker] = await Promise.all([
      startFaultSandbox({
        port: sandboxPort,
        latencyMs: [5, 30],
        env: { SANDBOX_PENDING_SHARE: '0', SANDBOX_SOLD_SHARE: '0.6' },
        timeoutMs: START_TIMEOUT_MS,
      }),
      startBff(),
      startFaultWorker({
        metricsPort: workerPort,
        redis: redisEnv,
        sandboxUrl,
        secrets,
        env: { DATABASE_URL: databaseUrl, POLL_INTERVAL_MS: '1000' },
        timeoutMs: START_TIMEOUT_MS,
      }),
    ]);
    processes.push(sandbox);
    let bff = firstBff;
    processes.push(bff, worker);

    const accepted = new Map<string, 'funnel' | 'partner'>();
    const failures: string[] = [];
    for (let burst = 1; burst <= BURSTS; burst += 1) {
      // Every lead answered first, so the burst is all submits: the BFF dies with many of them half done.
      const answered = await Promise.all(
        Array.from({ length: FUNNEL_PER_BURST }, () => answerFunnelLead(bffUrl, leadBody())),
      );
      const partnerBodies = Array.from({ length: PARTNER_PER_BURST }, () => leadBody());
      const killAfterMs = Math.round(5 + random() * 60);
      log(
        `burst ${burst}: ${answered.length} funnel submits, ${partnerBodies.length} partner posts; BFF killed after ${killAfterMs} ms`,
      );
      const submits = [
        ...answered.map(async ({ leadId, cookie }) => {
          await submitFunnelLead(bffUrl, cookie, { attempts: CLIENT_ATTEMPTS, pauseMs: 500 });
          accepted.set(leadId, 'funnel');
        }),
        ...partnerBodies.map(async (body) => {
          const leadId = await sendPartnerLead({
            baseUrl: bffUrl,
            apiKey,
            idempotencyKey: `order-${randomBytes(8).toString('hex')}`,
            body,
            attempts: CLIENT_ATTEMPTS,
          });
          accepted.set(leadId, 'partner');
        }),
      ].map((submit) => submit.catch((error: Error) => void failures.push(error.message)));
      await sleep(killAfterMs);
      await bff.kill();
      log('BFF killed (-9); starting it again');
      bff = await startBff();
      processes.push(bff);
      await Promise.all(submits);
    }

    // Settle: every accepted lead decided in Redis, then every event drained into PostgreSQL.
    log('settling');
    const ids = [...accepted.keys()];
    const outcomes = new Map<string, string>();
    const settleUntil = Date.now() + 90_000;
    while (Date.now() < settleUntil) {
      const raw = await redis.pipeline(ids.map((id) => ['hget', `${PREFIX}lead:${id}`, '_outcome'])).exec();
      ids.forEach((id, i) => {
        const value = raw?.[i]?.[1];
        outcomes.set(
          id,
          typeof value === 'string' ? (JSON.parse(value) as { outcome: string }).outcome : 'missing',
        );
      });
      if ([...outcomes.values()].every((o) => FINAL.includes(o))) break;
      await sleep(500);
    }
    const decided = ids.filter((id) => FINAL.includes(outcomes.get(id)!));
    // Judge, in PostgreSQL, once every event is drained.
    const funnelIds = new Set(ids.filter((id) => accepted.get(id) === 'funnel'));
    const { withoutSubmitted, withoutArchive, withoutFiveYears, funnelDecided } = await evidenceGaps(
      db,
      redis,
      `${PREFIX}lead-events`,
      decided,
      funnelIds,
      { timeoutMs: Math.max(5_000, settleUntil - Date.now()) },
    );
    const lost = [...outcomes.values()].filter((o) => o === 'missing').length;
    const stuck = ids.length - decided.length - lost;
    const metrics = await fetch(`${loopbackUrl(workerPort)}/metrics`).then((r) => r.text());
    const repaired =
      /funnel_reconciler_repairs_total\{kind="evidence_completed"\} (\d+)/.exec(metrics)?.[1] ?? '0';

    const table: Array<[string, string]> = [
      ['seed', String(seed)],
      [
        'leads accepted (funnel / partner)',
        `${ids.length} (${[...accepted.values()].filter((s) => s === 'funnel').length} / ${[...accepted.values()].filter((s) => s === 'partner').length})`,
      ],
      ['BFF kills during a submit burst', String(BURSTS)],
      ['leads decided / lost / stuck', `${decided.length} / ${lost} / ${stuck}`],
      ['decided leads without `submitted`', String(withoutSubmitted)],
      ['decided leads without a consent-archive row', String(withoutArchive)],
      [
        `funnel leads without a ${RETENTION_DAYS}-day consent copy`,
        `${withoutFiveYears} (of ${funnelDecided})`,
      ],
      ['evidence completed by the reconciler', repaired],
      ['clients that gave up', String(failures.length)],
    ];
    const width = Math.max(...table.map(([k]) => k.length));
    console.log(`\nevidence through BFF kills${short ? ' (--short)' : ''}`);
    for (const [k, v] of table) console.log(`  ${k.padEnd(width)}  ${v}`);
    if (failures.length > 0)
      console.log(`  client errors: ${JSON.stringify([...new Set(failures)].slice(0, 5))}`);
    const ok =
      withoutSubmitted === 0 &&
      withoutArchive === 0 &&
      withoutFiveYears === 0 &&
      lost === 0 &&
      stuck === 0 &&
      failures.length === 0 &&
      decided.length > 0;
    console.log(ok ? '\nPASS' : '\nFAIL');
    return ok;
  } finally {
    for (const p of processes.reverse()) await p.stop(2000).catch(() => undefined);
    redis.disconnect();
    await redisServer.kill();
    await db.destroy();
    await dropSchema(schema);
  }
}
