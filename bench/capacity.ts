// The capacity model (issue 28, build 7): what one lead costs, measured on the built apps, and what that makes of
// 100k, 1M and 10M leads a day. docs/capacity.md quotes this script's output line by line.
//
// Set-up: a private redis-server, the lender sandbox, the BFF and one worker (built, NODE_ENV=production), with
// the system of record in a PostgreSQL schema of its own (dropped after). Distinct fictitious borrowers, so the
// duplicate index is written as in production.
//   A. worker stopped: N funnel leads created and every step saved (draft), then submitted (submitted);
//   B. worker started, the sandbox deciding at once: every lead decided (decided), then the sensitive-data purge
//      after a short grace (purged), the lead events drained into PostgreSQL;
//   C. worker stopped again: N partner leads posted; worker started, the sandbox keeping each pending 5 s, so the
//      worker polls (pings) before the decision.
// Per lead: Redis memory (INFO used_memory deltas, and MEMORY USAGE of every key by family with its TTL), Redis
// commands (INFO stats total_commands_processed, script-internal calls included) and redis-server CPU (from
// /proc), PostgreSQL rows and bytes (pg_total_relation_size), BFF and worker CPU (from /proc). The idle
// background (the worker's blocking reads and schedulers, the BFF's health checks) is measured over an idle window
// and subtracted. Then one primary's ceiling: redis-benchmark against the same redis-server, its CPU per command.
//
// One goal, fixed by issue 45 before any run under it: one primary's 40 GB of data holds at least 1,000,000 leads a
// day at steady state (today's keys hold about 52,000, so it fails until the contact index and decided leads leave
// Redis). The rest are figures for the model, printed as `capacity | …` lines and kept in the run's record.
//
// `--smoke`: 30 leads a phase, a few seconds; the figures mean nothing then.
import { spawnSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Redis } from 'ioredis';
import pg from 'pg';
import { JOBS } from '@funnel/contracts/jobs';
import {
  answerFunnelLead,
  borrowerLead,
  sendPartnerLead,
  submitFunnelLead,
} from '@funnel/testing/lead-traffic';
import { freePort } from '@funnel/testing/processes';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { smoke } from './lib/bench-options.js';
import { CPU, withServices, type Service } from './lib/processes.js';
import { printLine, report } from './lib/report.js';
import {
  benchSecrets,
  redisClient,
  startBff,
  startRedis,
  startSandbox,
  startWorker as startBenchWorker,
} from './lib/services.js';

const N = smoke ? 30 : 1_000;
const PARALLEL = 16;
const PREFIX = 'bench:';
const PURGE_GRACE_S = smoke ? 3 : 8;
const PENDING_MS = 5_000;
const POLL_INTERVAL_MS = 2_000;
const CLK_TCK = Number(spawnSync('getconf', ['CLK_TCK']).stdout?.toString().trim() || 100);

/** User + system CPU of a process so far, ms (/proc/<pid>/stat). */
function cpuMs(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

/** A lead id (22 base64url characters), a job id made of one, a keyed hash (43) or a timestamp in a key becomes `*`. */
function family(key: string): string {
  return key
    .slice(PREFIX.length)
    .split(':')
    .map((part) =>
      part
        .replace(/^[A-Za-z0-9_-]{22}(?=\.|$)/, '*')
        .replace(/^[A-Za-z0-9_-]{40,}$/, '*')
        .replace(/^\d{10,}$/, '*'),
    )
    .join(':');
}

interface KeyFamily {
  keys: number;
  bytes: number;
  /** Remaining TTL of the family's keys, ms (median); -1 when they have none. */
  ttlMs: number;
}

async function keyFamilies(redis: Redis): Promise<Map<string, KeyFamily>> {
  const families = new Map<string, { keys: number; bytes: number; ttls: number[] }>();
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${PREFIX}*`, 'COUNT', 1000);
    cursor = next;
    const batch = redis.pipeline();
    for (const key of keys) batch.memory('USAGE', key, 'SAMPLES', '0').pttl(key);
    const results = (await batch.exec()) ?? [];
    keys.forEach((key, i) => {
      const bytes = Number(results[2 * i]?.[1] ?? 0);
      const ttl = Number(results[2 * i + 1]?.[1] ?? -1);
      const name = family(key);
      const entry = families.get(name) ?? { keys: 0, bytes: 0, ttls: [] };
      entry.keys += 1;
      entry.bytes += bytes;
      entry.ttls.push(ttl);
      families.set(name, entry);
    });
  } while (cursor !== '0');
  return new Map(
    [...families].map(([name, f]) => [
      name,
      { keys: f.keys, bytes: f.bytes, ttlMs: f.ttls.sort((a, b) => a - b)[Math.floor(f.ttls.length / 2)]! },
    ]),
  );
}

async function info(redis: Redis): Promise<{ usedMemory: number; commands: number }> {
  const text = await redis.info();
  const field = (name: string) => Number(new RegExp(`^${name}:(\\d+)`, 'm').exec(text)?.[1] ?? 0);
  return { usedMemory: field('used_memory'), commands: field('total_commands_processed') };
}

const pool = async (count: number, run: (i: number) => Promise<void>, parallel: number) => {
  let next = 0;
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (next < count) {
        const i = next;
        next += 1;
        await run(i);
      }
    }),
  );
};

/**
 * `fetch`, sent again after a second on a 503 (the BFF's answer while Redis is slow to confirm), up to five times,
 * as the web app does: a smoke run shares a busy machine.
 */
async function fetchRetrying(url: string, init: RequestInit): Promise<Response> {
  for (let attempt = 1; ; attempt += 1) {
    const response = await fetch(url, init);
    if (response.status !== 503 || attempt === 5) return response;
    await response.body?.cancel();
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
}

/** A visitor's draft: the lead created and every step saved, through a BFF that may answer 503 while busy. */
async function draftLead(baseUrl: string, body: Record<string, unknown>): Promise<string> {
  return (await answerFunnelLead(baseUrl, body, fetchRetrying)).cookie;
}

/** Submits a draft, once (a retry would count twice in the per-lead figures); answers its lead id. */
async function submitDraft(baseUrl: string, cookie: string): Promise<string> {
  await submitFunnelLead(baseUrl, cookie, { attempts: 1 });
  return decodeURIComponent(cookie.split('=')[1]!).split('.')[0]!;
}

const out = (label: string, value: string) => printLine(`capacity | ${label} | ${value}`);
const n0 = (x: number) => Math.round(x).toLocaleString('en-US');
const n1 = (x: number) => x.toFixed(1);
const kb = (bytes: number) => `${(bytes / 1000).toFixed(2)} kB`;

await withServices(async (track) => {
  const redisService = track(await startRedis());
  const redis = redisClient(redisService.url);
  const schema = testSchema('bench_capacity');
  const databaseUrl = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const db = new pg.Client({ connectionString: testDatabaseUrl() });
  await db.connect();
  await db.query(`create schema "${schema}"`);
  const secrets = { ...benchSecrets() };
  delete secrets.DUPLICATE_WINDOW_DAYS; // the product's default: the borrower index is part of the cost
  const apiKey = `fpk_${randomBytes(24).toString('base64url')}`;
  try {
    const sandbox = track(
      await startSandbox({
        SANDBOX_LATENCY_MIN_MS: '5',
        SANDBOX_LATENCY_MAX_MS: '20',
        SANDBOX_PENDING_SHARE: '0',
      }),
    );
    const configure = async (patch: Record<string, unknown>) => {
      const r = await fetch(`${sandbox.url}/_sandbox/config`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(patch),
      });
      if (!r.ok) throw new Error(`sandbox config: ${await r.text()}`);
    };
    const bff = track(
      await startBff({
        redisUrl: redisService.url,
        secrets,
        env: {
          LOG_LEVEL: 'warn',
          DATABASE_URL: databaseUrl,
          PARTNER_API_KEYS: `cap:aff-cap:${createHash('sha256').update(apiKey).digest('hex')}:600000`,
        },
      }),
    );
    let worker: Service | undefined;
    const startWorker = async () => {
      worker = track(
        await startBenchWorker(
          redisService.url,
          PREFIX,
          secrets,
          {
            LENDER_NETWORK_URL: sandbox.url,
            DATABASE_URL: databaseUrl,
            POLL_INTERVAL_MS: String(POLL_INTERVAL_MS),
            SENSITIVE_PURGE_GRACE_HOURS: String(PURGE_GRACE_S / 3600),
          },
          { metricsPort: await freePort() },
        ),
      );
      return worker;
    };
    const stopWorker = async () => {
      await worker?.stop();
      worker = undefined;
    };
    const redisCpu = () => cpuMs(redisService.pid);
    const pgSizes = async () => {
      const { rows } = await db.query<{ name: string; rows: string; bytes: string }>(
        `select c.relname as name, c.reltuples::bigint as rows, pg_total_relation_size(c.oid) as bytes
         from pg_class c join pg_namespace n on n.oid = c.relnamespace
         where n.nspname = $1 and c.relkind = 'r'`,
        [schema],
      );
      const counts = new Map<string, { rows: number; bytes: number }>();
      for (const row of rows) {
        const exact = await db.query<{ n: string }>(`select count(*) as n from "${schema}"."${row.name}"`);
        counts.set(row.name, { rows: Number(exact.rows[0]!.n), bytes: Number(row.bytes) });
      }
      return counts;
    };
    const outcomeOf = async (id: string) => {
      const raw = await redis.hget(`${PREFIX}lead:${id}`, '_outcome');
      return raw ? (JSON.parse(raw) as { outcome: string }).outcome : 'missing';
    };
    const waitFor = async (what: string, done: () => Promise<boolean>, timeoutMs: number) => {
      const until = Date.now() + timeoutMs;
      while (!(await done())) {
        if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
        await sleep(250);
      }
    };
    const allDecided = (ids: string[]) => async () => {
      for (const id of ids) if (['pending', 'missing'].includes(await outcomeOf(id))) return false;
      return true;
    };
    const purged = (ids: string[]) => async () => {
      for (const id of ids)
        if (!(await redis.hexists(`${PREFIX}lead:${id}`, '_sensitive_purged_at'))) return false;
      return (await redis.xlen(`${PREFIX}lead-events`)) === 0;
    };
    let borrower = 0;

    // Warm-up: a few leads through everything, so code paths are compiled, scripts loaded, tables made. The
    // worker's start (its CPU, commands and redis-server CPU until ready) is measured here and taken off the
    // phases that start it.
    const start0 = { redis: await info(redis), redisCpu: cpuMs(redisService.pid) };
    await startWorker();
    const startup = {
      workerCpu: cpuMs(worker!.pid),
      commands: (await info(redis)).commands - start0.redis.commands - 1,
      redisCpu: cpuMs(redisService.pid) - start0.redisCpu,
    };
    const warm: string[] = [];
    await pool(
      smoke ? 5 : 40,
      async () => {
        borrower += 1;
        warm.push(await submitDraft(bff.url, await draftLead(bff.url, borrowerLead(borrower))));
      },
      4,
    );
    await waitFor('warm-up outcomes', allDecided(warm), 60_000);
    await waitFor('warm-up purge', purged(warm), 120_000);

    // Idle background, with BFF and worker up and nothing to do.
    const idleS = smoke ? 2 : 10;
    const idle0 = {
      redis: await info(redis),
      redisCpu: redisCpu(),
      bff: cpuMs(bff.pid),
      worker: cpuMs(worker!.pid),
    };
    await sleep(idleS * 1000);
    const idle1 = {
      redis: await info(redis),
      redisCpu: redisCpu(),
      bff: cpuMs(bff.pid),
      worker: cpuMs(worker!.pid),
    };
    const idle = {
      commandsPerS: (idle1.redis.commands - idle0.redis.commands - 2) / idleS,
      redisCpuPerS: (idle1.redisCpu - idle0.redisCpu) / idleS,
      bffCpuPerS: (idle1.bff - idle0.bff) / idleS,
      workerCpuPerS: (idle1.worker - idle0.worker) / idleS,
    };
    out(
      'idle background, BFF + 1 worker',
      `${n1(idle.commandsPerS)} Redis commands/s, redis-server CPU ${n1(idle.redisCpuPerS)} ms/s, BFF CPU ${n1(idle.bffCpuPerS)} ms/s, worker CPU ${n1(idle.workerCpuPerS)} ms/s`,
    );
    await stopWorker();
    // A phase's Redis commands and CPU, less the idle background of the processes running meanwhile.
    const phase = async <T>(withWorker: boolean, run: () => Promise<T>, startsWorker = false) => {
      const before = {
        redis: await info(redis),
        redisCpu: redisCpu(),
        bff: cpuMs(bff.pid),
        worker: worker ? cpuMs(worker.pid) : 0,
      };
      const t0 = performance.now();
      const result = await run();
      const seconds = (performance.now() - t0) / 1000;
      const after = {
        redis: await info(redis),
        redisCpu: redisCpu(),
        bff: cpuMs(bff.pid),
        worker: worker ? cpuMs(worker.pid) : 0,
      };
      // Without the worker, its share of the idle background is not there: the BFF's is taken as none (its only
      // Redis traffic at rest is health checks).
      const background = withWorker ? 1 : 0;
      const start = startsWorker ? 1 : 0;
      return {
        result,
        seconds,
        commands:
          after.redis.commands -
          before.redis.commands -
          2 -
          background * idle.commandsPerS * seconds -
          start * startup.commands,
        redisCpu:
          after.redisCpu -
          before.redisCpu -
          background * idle.redisCpuPerS * seconds -
          start * startup.redisCpu,
        bffCpu: after.bff - before.bff - idle.bffCpuPerS * seconds,
        workerCpu: withWorker
          ? after.worker - before.worker - idle.workerCpuPerS * seconds - start * startup.workerCpu
          : 0,
        memory: after.redis.usedMemory - before.redis.usedMemory,
      };
    };
    const memory0 = (await info(redis)).usedMemory;
    const families0 = await keyFamilies(redis);
    const pg0 = await pgSizes();

    // A. Drafts, then submissions, the worker stopped.
    const cookies: string[] = [];
    const drafts = await phase(false, () =>
      pool(
        N,
        async () => {
          borrower += 1;
          cookies.push(await draftLead(bff.url, borrowerLead(borrower)));
        },
        PARALLEL,
      ),
    );
    const familiesDraft = await keyFamilies(redis);
    const ids: string[] = [];
    const submits = await phase(false, () =>
      pool(N, async (i) => void ids.push(await submitDraft(bff.url, cookies[i]!)), PARALLEL),
    );
    const familiesSubmitted = await keyFamilies(redis);

    // B. The worker decides them (the sandbox at once), then purges.
    const decided = await phase(
      true,
      async () => {
        await startWorker();
        await waitFor('outcomes', allDecided(ids), 120_000);
      },
      true,
    );
    const familiesDecided = await keyFamilies(redis);
    const purge = await phase(true, () => waitFor('purge and drain', purged(ids), 120_000));
    const familiesPurged = await keyFamilies(redis);
    const memoryPurged = (await info(redis)).usedMemory;
    const pgFunnel = await pgSizes();
    await stopWorker();

    // C. Partner leads, pending 5 s upstream: posted with the worker stopped, then decided.
    await configure({ pendingShare: 1, pendingMinMs: PENDING_MS, pendingMaxMs: PENDING_MS });
    await fetch(`${sandbox.url}/_sandbox/reset`, { method: 'POST' });
    const partnerIds: string[] = [];
    const partnerPosts = await phase(false, () =>
      pool(
        N,
        async () => {
          borrower += 1;
          partnerIds.push(
            await sendPartnerLead({
              baseUrl: bff.url,
              apiKey,
              idempotencyKey: `order-${randomBytes(8).toString('hex')}`,
              body: borrowerLead(borrower),
            }),
          );
        },
        PARALLEL,
      ),
    );
    const partnerDecided = await phase(
      true,
      async () => {
        await startWorker();
        await waitFor('partner outcomes', allDecided(partnerIds), 180_000);
        await waitFor('partner purge', purged(partnerIds), 120_000);
      },
      true,
    );
    const familiesPartner = await keyFamilies(redis);
    const pings = ((await (await fetch(`${sandbox.url}/_sandbox/stats`)).json()) as { pings: number }).pings;
    const pgPartner = await pgSizes();
    await stopWorker();

    // ---- Per lead.
    const stageMemory = (families: Map<string, KeyFamily>) =>
      [...families].reduce((sum, [name, f]) => sum + f.bytes - (families0.get(name)?.bytes ?? 0), 0) / N;
    out('leads per phase', `${N} funnel + ${N} partner (${N === 1000 ? 'full' : 'smoke'} run)`);
    out(
      'Redis memory per funnel lead, MEMORY USAGE of its keys: draft / submitted / decided / purged',
      [familiesDraft, familiesSubmitted, familiesDecided, familiesPurged]
        .map((f) => kb(stageMemory(f)))
        .join(' / '),
    );
    out(
      'Redis used_memory delta per funnel lead: draft / +submitted / +decided / +purged / total',
      [drafts, submits, decided, purge].map((p) => kb(p.memory / N)).join(' / ') +
        ` / ${kb((memoryPurged - memory0) / N)}`,
    );
    printLine('capacity | key families after purge (per funnel lead): family | keys | bytes | TTL');
    for (const [name, f] of [...familiesPurged].sort((a, b) => b[1].bytes - a[1].bytes)) {
      const base = families0.get(name);
      const keys = (f.keys - (base?.keys ?? 0)) / N;
      const bytes = (f.bytes - (base?.bytes ?? 0)) / N;
      if (Math.abs(bytes) < 1) continue;
      const ttl = f.ttlMs < 0 ? 'none' : `${n1(f.ttlMs / 86_400_000)} d`;
      printLine(`capacity |   ${name} | ${keys.toFixed(2)} | ${n0(bytes)} B | ${ttl}`);
    }
    const per = (x: number) => x / N;
    const funnelCommands = per(drafts.commands + submits.commands);
    const workerCommandsAtOnce = per(decided.commands + purge.commands);
    const partnerBffCommands = per(partnerPosts.commands);
    const workerCommandsPending = per(partnerDecided.commands);
    const pingsPerLead = pings / N;
    const commandsPerPing = (workerCommandsPending - workerCommandsAtOnce) / Math.max(pingsPerLead, 1e-9);
    out(
      'Redis commands per lead, funnel API (create + 7 steps + submit, BFF)',
      `${n1(funnelCommands)} (draft ${n1(per(drafts.commands))}, submit ${n1(per(submits.commands))})`,
    );
    out('Redis commands per lead, partner API (BFF)', n1(partnerBffCommands));
    out(
      'Redis commands per lead, worker, decided at once (post → outcome → purge → drain)',
      n1(workerCommandsAtOnce),
    );
    out(
      `Redis commands per lead, worker, pending ${PENDING_MS / 1000} s upstream`,
      `${n1(workerCommandsPending)} with ${n1(pingsPerLead)} pings/lead: ${n1(commandsPerPing)} commands per ping`,
    );
    const redisCpuFunnel = per(drafts.redisCpu + submits.redisCpu + decided.redisCpu + purge.redisCpu);
    const redisCpuPartner = per(partnerPosts.redisCpu + partnerDecided.redisCpu);
    out(
      'redis-server CPU per lead, ms: funnel lead (all of it) / partner lead pending 5 s (all of it)',
      `${redisCpuFunnel.toFixed(3)} / ${redisCpuPartner.toFixed(3)}`,
    );
    const bffFunnel = per(drafts.bffCpu + submits.bffCpu);
    const bffPartner = per(partnerPosts.bffCpu);
    const workerAtOnce = per(decided.workerCpu + purge.workerCpu);
    const workerPending = per(partnerDecided.workerCpu);
    out(
      'BFF CPU per lead, ms: funnel (create + 7 steps + submit) / partner post',
      `${n1(bffFunnel)} / ${n1(bffPartner)}`,
    );
    out(
      `worker CPU per lead, ms: decided at once / pending ${PENDING_MS / 1000} s (${n1(pingsPerLead)} pings)`,
      `${n1(workerAtOnce)} / ${n1(workerPending)}`,
    );
    const pgDelta = (after: Map<string, { rows: number; bytes: number }>, before: typeof pg0) => {
      let rows = 0;
      let bytes = 0;
      const parts: string[] = [];
      for (const [name, t] of after) {
        const r = (t.rows - (before.get(name)?.rows ?? 0)) / N;
        const b = (t.bytes - (before.get(name)?.bytes ?? 0)) / N;
        rows += r;
        bytes += b;
        if (r > 0) parts.push(`${name} ${r.toFixed(2)}`);
      }
      return { rows, bytes, parts };
    };
    const pgF = pgDelta(pgFunnel, pg0);
    const pgP = pgDelta(pgPartner, pgFunnel);
    out('PostgreSQL rows per funnel lead', `${pgF.rows.toFixed(2)} (${pgF.parts.join(', ')})`);
    out('PostgreSQL rows per partner lead', `${pgP.rows.toFixed(2)} (${pgP.parts.join(', ')})`);
    out(
      'PostgreSQL bytes per lead (pg_total_relation_size, indexes and TOAST included): funnel / partner',
      `${kb(pgF.bytes)} / ${kb(pgP.bytes)}`,
    );

    // ---- One primary's ceiling: redis-benchmark on the same server (the client on the other CPU), without and with
    // pipelining; redis-server's CPU over the run says whether it, or the client, was the limit.
    const redisBenchmark = (pipeline: number) => {
      const requests = smoke ? 20_000 : pipeline > 1 ? 1_000_000 : 100_000;
      const tests = 'set,get,hset,incr,lpush,zadd';
      const cpu0 = redisCpu();
      const t0 = performance.now();
      const run = spawnSync(
        'taskset',
        [
          '-c',
          CPU.server,
          'redis-benchmark',
          '-p',
          new URL(redisService.url).port,
          '-c',
          '50',
          '-P',
          String(pipeline),
        ].concat(['-n', String(requests), '-t', tests, '-q', '--csv']),
        { encoding: 'utf8' },
      );
      const wallMs = performance.now() - t0;
      const cpu = redisCpu() - cpu0;
      const rates = [...run.stdout.matchAll(/^"([A-Z]+)[^"]*","([\d.]+)"/gm)].map(
        (m) => [m[1]!, Number(m[2])] as const,
      );
      const meanRate = rates.reduce((sum, [, r]) => sum + r, 0) / Math.max(rates.length, 1);
      const cpuPerCommandUs = (cpu * 1000) / (requests * rates.length);
      out(
        `one primary, redis-benchmark -c 50 -P ${pipeline} (SET GET HSET INCR LPUSH ZADD)`,
        `${rates.map(([t, r]) => `${t} ${n0(r)}`).join(', ')} ops/s; mean ${n0(meanRate)} ops/s; redis-server CPU ${cpuPerCommandUs.toFixed(2)} µs/command, busy ${((cpu / wallMs) * 100).toFixed(0)} % of a core`,
      );
      return { meanRate, cpuPerCommandUs };
    };
    const plain = redisBenchmark(1);
    const pipelined = redisBenchmark(16);
    // A core's worth of simple commands, unpipelined: what the product's round trips cost redis-server each.
    const ceilingOps = 1_000_000 / plain.cpuPerCommandUs;
    out(
      'one primary, ceiling',
      `${n0(ceilingOps)} unpipelined commands/s at one busy core (1 s ÷ ${plain.cpuPerCommandUs.toFixed(2)} µs); pipelined ${n0(pipelined.meanRate)} ops/s measured`,
    );

    // ---- The model: half the leads through the funnel, decided at once (phases A and B); half through the partner
    // API, pending 5 s upstream (phase C).
    const PEAK_TO_MEAN = 3;
    const TARGET = 0.5; // of a core, or of one primary's CPU: headroom for bursts, failover and growth
    const mix = (funnel: number, partner: number) => (funnel + partner) / 2;
    const workerCpu = mix(workerAtOnce, workerPending);
    const bffCpu = mix(bffFunnel, bffPartner);
    const redisCpuLead = mix(redisCpuFunnel, redisCpuPartner);
    const commandsLead = mix(
      funnelCommands + workerCommandsAtOnce,
      partnerBffCommands + workerCommandsPending,
    );
    const pgBytesLead = mix(pgF.bytes, pgP.bytes);
    const pgRowsLead = mix(pgF.rows, pgP.rows);
    // Each family's bytes per lead, after purge, in the mix.
    const familyBytes = new Map<string, number>();
    for (const name of new Set([...familiesPurged.keys(), ...familiesPartner.keys()])) {
      const funnel = ((familiesPurged.get(name)?.bytes ?? 0) - (families0.get(name)?.bytes ?? 0)) / N;
      const partner = ((familiesPartner.get(name)?.bytes ?? 0) - (familiesPurged.get(name)?.bytes ?? 0)) / N;
      familyBytes.set(name, mix(funnel, partner));
    }
    // Steady-state Redis memory: each family's bytes per lead × the leads alive in it (its TTL, or for BullMQ's
    // completed jobs the queue's retention: removeOnComplete age and count).
    const retentionDays = (name: string, leadsPerDay: number): number => {
      const f = familiesPartner.get(name) ?? familiesPurged.get(name)!;
      if (f.ttlMs >= 0) return f.ttlMs / 86_400_000; // the TTL left once the lead is done
      const queue = /^bull:([^:]+):\*(\.[\w-]+)?$/.exec(name)?.[1];
      const job = Object.values(JOBS).find((j) => j.queue === queue);
      const keep: unknown = job?.options.removeOnComplete;
      if (keep && typeof keep === 'object') {
        const { age, count } = keep as { age?: number; count?: number };
        return Math.min((age ?? Infinity) / 86_400, (count ?? Infinity) / leadsPerDay);
      }
      return 0; // transient (outbox, pending set, stream entries): gone once the lead is done
    };
    const steadyRedis = (leadsPerDay: number) => {
      let bytes = 0;
      for (const [name, perLead] of familyBytes) {
        if (perLead > 0) bytes += perLead * leadsPerDay * retentionDays(name, leadsPerDay);
      }
      return bytes;
    };
    const redisBytesLead = [...familyBytes.values()].reduce((a, b) => a + b, 0);
    out(
      'model assumptions',
      `peak-to-mean ${PEAK_TO_MEAN}; half the leads funnel leads decided at once, half partner leads pending ${PENDING_MS / 1000} s upstream; target load ${TARGET * 100} % of a core per instance and of one primary's CPU; instances at least 2`,
    );
    out(
      'model per lead (mix)',
      `BFF ${n1(bffCpu)} ms, worker ${n1(workerCpu)} ms, Redis ${n1(commandsLead)} commands and ${redisCpuLead.toFixed(3)} ms CPU, PostgreSQL ${pgRowsLead.toFixed(2)} rows ${kb(pgBytesLead)}, Redis after purge ${kb(redisBytesLead)}`,
    );
    printLine(
      'capacity | steady Redis memory by family at 1M leads/day: family | bytes/lead | kept (days) | GB',
    );
    for (const [name, perLead] of [...familyBytes].sort((a, b) => b[1] - a[1])) {
      if (perLead < 1) continue;
      const days = retentionDays(name, 1_000_000);
      printLine(
        `capacity |   ${name} | ${n0(perLead)} | ${days.toFixed(2)} | ${((perLead * 1_000_000 * days) / 1e9).toFixed(2)}`,
      );
    }
    const ceilingLeadsPerS = (TARGET * 1000) / redisCpuLead;
    // Memory: one primary with 40 GB of data (a 64 GB machine: room for the fork of an AOF rewrite or a replica's
    // full sync, and for replication buffers). Steady memory is linear in leads a day.
    const PRIMARY_DATA_GB = 40;
    const perLeadPerDay = steadyRedis(1_000_000) / 1_000_000;
    const contactShare = [...familyBytes]
      .filter(([name]) => name.startsWith('contact-leads:'))
      .reduce((sum, [name, b]) => sum + b * retentionDays(name, 1_000_000), 0);
    const primaryHolds = (PRIMARY_DATA_GB * 1e9) / perLeadPerDay;
    out(
      `one primary's memory (${PRIMARY_DATA_GB} GB of data) holds`,
      `${n0(primaryHolds)} leads a day as the keys are kept now; ${n0((PRIMARY_DATA_GB * 1e9) / (perLeadPerDay - contactShare))} leads a day without contact-leads:* in Redis`,
    );
    // Issue 45's goal, fixed by the issue before any run under it (docs/adr/0028): one 40 GB primary holds a
    // million leads a day, decided leads kept their configured days. Today's key layout holds about 52,000.
    report({
      measure: `leads a day one primary's memory holds (${PRIMARY_DATA_GB} GB of data, steady state)`,
      product: `${n0(primaryHolds)} leads a day`,
      baseline: '–',
      goals: [{ measured: primaryHolds, op: '>=', limit: 1_000_000 }],
    });
    out(
      'one primary at the target load',
      `${n0(ceilingLeadsPerS)} leads/s at peak = ${n0((ceilingLeadsPerS * 86_400) / PEAK_TO_MEAN)} leads a day (${n0(ceilingLeadsPerS * commandsLead)} commands/s)`,
    );
    printLine(
      'capacity | table: leads/day | peak leads/s | BFF instances | worker instances | Redis commands/s at peak (of the unpipelined ceiling) | Redis CPU at peak (of one core) | Redis memory, steady | PostgreSQL rows/s at peak | PostgreSQL storage/month',
    );
    for (const perDay of [100_000, 1_000_000, 10_000_000]) {
      const peak = (perDay / 86_400) * PEAK_TO_MEAN;
      const instances = (cpuMs: number) => Math.max(2, Math.ceil((peak * cpuMs) / (1000 * TARGET)));
      const redisShare = (peak * redisCpuLead) / 1000;
      printLine(
        `capacity | ${n0(perDay)} | ${n1(peak)} | ${instances(bffCpu)} | ${instances(workerCpu)} | ${n0(peak * commandsLead)} (${((peak * commandsLead * 100) / ceilingOps).toFixed(1)} %) | ${(redisShare * 100).toFixed(1)} % | ${(steadyRedis(perDay) / 1e9).toFixed(2)} GB | ${n0(peak * pgRowsLead)} | ${((pgBytesLead * perDay * 30) / 1e9).toFixed(1)} GB`,
      );
    }
  } finally {
    redis.disconnect();
    await db.end();
    await dropSchema(schema);
  }
});
