// The ping auction (issue 27, ADR 0020): the same 2,000 seeded leads, in the same run, against one sandbox, through
// (a) today's waterfall, (b) the auction ranked by the highest bid, (c) the auction ranked by expected value after
// a learning period of 1,000 other leads through (c)'s own setup (its records start empty, on the priors).
//
// Sandbox profiles (bids and acceptance are independent draws: what a buyer bids does not tell what it keeps):
// - high-bidder, ping-post: bids on 90 % of leads, $60-95; accepts half its posts; returns 80 % of what it buys.
// - mid-bidder, ping-post: bids on 70 %, $40-65; accepts half; returns 10 %. Capped at 150 sales an hour.
// - steady-bidder, ping-post: bids on 90 %, $30-50; accepts 90 %; returns 3 %.
// - prime-market, sync-post, ladder 80/50/20 (config/sandbox-buyers.example.json's): returns 8 %.
// - subprime-market, sync-post, ladder 20/2/0 (the example's, every state): returns 15 %.
// Every call answers in 100-400 ms; a bid lives 1.5 s. Leads arrive at 20 a second. The waterfall (a) walks the
// buyers in the order above (tiers 1-5: the ping-post buyers by the size of their bids, then the ladders), each
// ping-post step a ping and a post.
// Returns: the sandbox has no returns yet, so this script plays the buyers' side. About a second after a sale it
// draws (seeded per lead and buyer) whether the buyer returns it, and writes the `returned` event the returns
// API records into the setup's system of record, where (c)'s ranking learns from it (its `returnWindowMs` is 5 s:
// a sale not returned by then is kept). Net revenue = sales' prices less the prices of those returned.
//
// Each setup runs on two workers with its own key prefix and PostgreSQL schema; in each measured setup one worker
// is SIGKILLed once a third of the leads have arrived, and started again (its jobs come back after 2 s).
// Printed: net revenue per lead, sold rate and decision time p50/p95 of each. Goals: (c) ≥ 1.2× (a) and ≥ 1.05×
// (b) in net revenue per lead; (c)'s p95 ≤ (a)'s; no ping with a field beyond the allow-list; no cap exceeded;
// no attempt repeated at a buyer; every lead decided before its deadline.
// BENCH_SABOTAGE=auction gives (c) a buyers file whose ping round lasts 200 ms, learning period included: less the
// 100 ms a bid needs to come back, the ping buyers get 100 ms to answer, under what they take (100-400 ms), so (c)
// never holds a bid and sells only down the direct-post ladders. (a) and (b) are unchanged. Both revenue goals
// must fail: about 1.0× (a) and 0.8× (b).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { BuyersFileSchema, DEFAULT_ROUND_MS, type BuyerInput } from '@funnel/contracts/buyers';
import {
  SandboxBuyersStatsSchema,
  SandboxPingRecordingSchema,
  type SandboxBuyerInput,
} from '@funnel/contracts/sandbox-buyers';
import { migrate, openDatabase } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { EncryptionKeysSchema } from '@funnel/lead-store/encryption-keys';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { benchSeed, sabotaged, smoke } from './lib/bench-options.js';
import { withServices, type Service } from './lib/processes.js';
import { fmt, recordSeed, report } from './lib/report.js';
import { leadProfiles, seeded, submitLeads, waitForOutcomes, type Decided } from './lib/seeded-leads.js';
import {
  benchSecrets,
  redisClient,
  startRedis,
  startSandbox,
  startWorker as startBenchWorker,
} from './lib/services.js';

const LEADS = smoke ? 40 : 2_000;
const LEARNING_LEADS = smoke ? 40 : 1_000;
const SEED = benchSeed(20_261_125);
recordSeed(SEED);
console.log(`seed ${SEED} (--seed=<n> draws another)`);
const DEADLINE_MS = 310_000;
const MID_CAP_PER_HOUR = smoke ? 3 : 150;
/**
 * Borrowers arrive at this rate, within what two workers decide on this machine, so that decision times measure
 * the walk or the auction, not a queue.
 */
const ARRIVALS_PER_SECOND = 20;
/** Each measured setup loses one of its two workers to a SIGKILL once a third of its leads have arrived. */
const KILL = { kill: true };
const latency = { latencyMinMs: 100, latencyMaxMs: 400 };
const pingPost = { protocol: 'ping-post', bidTtlMs: 1500, ...latency } as const;
/** The bad product's ping round (see the header): no ping buyer answers within it. */
const SABOTAGED_ROUND_MS = 200;

const SANDBOX_BUYERS: SandboxBuyerInput[] = [
  { id: 'high-bidder', ...pingPost, seed: 31, bidRate: 0.9, bidMin: 60, bidMax: 95, acceptShare: 0.5 },
  { id: 'mid-bidder', ...pingPost, seed: 32, bidRate: 0.7, bidMin: 40, bidMax: 65, acceptShare: 0.5 },
  { id: 'steady-bidder', ...pingPost, seed: 33, bidRate: 0.9, bidMin: 30, bidMax: 50, acceptShare: 0.9 },
  {
    id: 'prime-market',
    protocol: 'sync-post',
    seed: 11,
    interestShare: 0.5,
    maxValue: 140,
    bidShare: 0.3,
    ...latency,
  },
  {
    id: 'subprime-market',
    protocol: 'sync-post',
    seed: 23,
    interestShare: 0.6,
    maxValue: 30,
    bidShare: 0.2,
    ...latency,
  },
];
/** Share of each buyer's purchases it returns. */
const RETURN_SHARE: Record<string, number> = {
  'high-bidder': 0.8,
  'mid-bidder': 0.1,
  'steady-bidder': 0.03,
  'prime-market': 0.08,
  'subprime-market': 0.15,
};
const PING_POST_IDS = ['high-bidder', 'mid-bidder', 'steady-bidder'];

function buyersOf(sandboxUrl: string): BuyerInput[] {
  const at = (id: string) => `${sandboxUrl}/buyers/${id}`;
  return [
    { id: 'high-bidder', protocol: 'ping-post', baseUrl: at('high-bidder'), tier: 1 },
    {
      id: 'mid-bidder',
      protocol: 'ping-post',
      baseUrl: at('mid-bidder'),
      tier: 2,
      caps: { perHour: MID_CAP_PER_HOUR },
    },
    { id: 'steady-bidder', protocol: 'ping-post', baseUrl: at('steady-bidder'), tier: 3 },
    {
      id: 'prime-market',
      protocol: 'sync-post',
      baseUrl: at('prime-market'),
      tier: 4,
      priceLadder: [80, 50, 20],
    },
    {
      id: 'subprime-market',
      protocol: 'sync-post',
      baseUrl: at('subprime-market'),
      tier: 5,
      priceLadder: [20, 2, 0],
    },
  ];
}

interface Sale {
  buyer: string;
  price: number;
  returned: boolean;
}

/**
 * Plays the buyers' returns while a setup runs: every second, each new sale (read from its walk) is returned
 * or kept by a seeded draw, and a return is written as the returns API writes it. Resolves the sales at `stop`.
 */
function playReturns(redis: Redis, prefix: string, db: ReturnType<typeof openDatabase>, ids: () => string[]) {
  const sales = new Map<string, Sale>();
  let stopped = false;
  const pass = async () => {
    const index = new Map(ids().map((id, i) => [id, i]));
    const pending = ids().filter((id) => !sales.has(id));
    const results = await Promise.all(pending.map((id) => redis.hget(`${prefix}waterfall:${id}`, 'result')));
    const returned = [];
    for (const [i, raw] of results.entries()) {
      if (!raw) continue;
      const id = pending[i]!;
      const { buyer, price } = JSON.parse(raw) as { buyer: string; price: number };
      const draw = seeded(SEED ^ hash(`${buyer}:${index.get(id)}`))();
      const sale = { buyer, price, returned: draw < (RETURN_SHARE[buyer] ?? 0) };
      sales.set(id, sale);
      if (sale.returned) {
        returned.push({
          eventId: `returned:${id}`,
          leadId: id,
          at: new Date().toISOString(),
          type: 'returned' as const,
          returnId: `bench-return-${id}`,
          buyer,
          // The sale's own attempt key is in the walk; the learning reads only the lead and the buyer.
          attemptKey: `${id}-sale`,
          reason: 'invalid_contact' as const,
          price,
          approvedBy: 'rule' as const,
          filedAt: new Date().toISOString(),
        });
      }
    }
    await recordEvents(db, returned);
  };
  const loop = (async () => {
    while (!stopped) {
      await pass();
      await new Promise((r) => setTimeout(r, 1000));
    }
    await pass();
  })();
  return {
    async stop(): Promise<Sale[]> {
      stopped = true;
      await loop;
      return [...sales.values()];
    },
  };
}

function hash(text: string): number {
  let h = 2_166_136_261;
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16_777_619);
  return h >>> 0;
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0;
}

interface SetupResult extends Decided {
  sales: Sale[];
  /** Seconds into the run the worker was killed at. */
  killedAt?: number;
  capsExceeded: number;
}

await withServices(async (track) => {
  const redis = track(await startRedis());
  const secrets = benchSecrets();
  const cipher = new FieldCipher(EncryptionKeysSchema.parse(secrets.FIELD_ENCRYPTION_KEYS!));
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-auction-'));
  const sandbox = track(await startSandbox({}, { buyers: SANDBOX_BUYERS }));
  const client = redisClient(redis.url);
  const schemas: string[] = [];

  const startWorker = (prefix: string, env: Record<string, string>) =>
    startBenchWorker(redis.url, prefix, secrets, {
      LENDER_NETWORK_URL: sandbox.url,
      WORKER_CONCURRENCY: '100',
      ...env,
    });

  /** One setup: its buyers file, two workers, its leads, the returns played, the sales counted. */
  async function runSetup(
    name: string,
    file: {
      mode: 'waterfall' | 'auction';
      rankBy?: 'price' | 'expected-value';
      roundMs?: number;
      schema: string;
    },
    leads: number,
    options: { kill: boolean },
  ): Promise<SetupResult> {
    const prefix = `bench-${name}:`;
    const db = openDatabase({ url: testDatabaseUrl(), schema: file.schema });
    const buyersFile = path.join(dir, `${name}.json`);
    const buyers = BuyersFileSchema.parse({
      timeZone: 'America/Chicago',
      mode: file.mode,
      // A 5 s return window (the script returns within about a second), records read every 2 s.
      auction: {
        roundMs: file.roundMs ?? DEFAULT_ROUND_MS,
        rankBy: file.rankBy ?? 'expected-value',
        windowMs: 3_600_000,
        returnWindowMs: 5000,
        refreshMs: 2000,
      },
      buyers: buyersOf(sandbox.url),
    });
    writeFileSync(buyersFile, JSON.stringify(buyers));
    const databaseUrl = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${file.schema}`)}`;
    // A killed worker's jobs come back after 2 s (the tests' setting), in every setup alike.
    const env = {
      BUYERS_FILE: buyersFile,
      DATABASE_URL: databaseUrl,
      STALLED_INTERVAL_MS: '1000',
      LOCK_DURATION_MS: '2000',
    };
    const workers: Service[] = [track(await startWorker(prefix, env)), track(await startWorker(prefix, env))];
    await bothConsuming(prefix);
    let ids: string[] = [];
    const returns = playReturns(client, prefix, db, () => ids);
    const startedAt = Date.now();
    // The kill lands mid-run: once a third of the leads have arrived, while the workers are busy with the last.
    let killedAt: number | undefined;
    const killAfterMs = (leads / 3 / ARRIVALS_PER_SECOND) * 1000;
    const kill = options.kill
      ? setTimeout(() => {
          killedAt = Math.round((Date.now() - startedAt) / 1000);
          void workers[0]!.kill().then(async () => workers.push(track(await startWorker(prefix, env))));
        }, killAfterMs)
      : undefined;
    ids = await submitLeads(
      client,
      prefix,
      cipher,
      leadProfiles(leads, SEED),
      DEADLINE_MS,
      ARRIVALS_PER_SECOND,
    );
    const store = new LeadStore(client, cipher, { keyPrefix: prefix, ttlMs: 3_600_000 });
    const decided = await waitForOutcomes(store, ids, DEADLINE_MS + 60_000);
    clearTimeout(kill);
    const sales = await returns.stop();
    const hours = Math.floor(Date.now() / 3_600_000) - Math.floor(startedAt / 3_600_000) + 1;
    const midSales = sales.filter((s) => s.buyer === 'mid-bidder').length;
    for (const worker of workers) await worker.stop();
    await db.destroy();
    return {
      ...decided,
      sales,
      ...(killedAt !== undefined ? { killedAt } : {}),
      capsExceeded: Math.max(0, midSales - MID_CAP_PER_HOUR * hours),
    };
  }

  /** Resolves once two workers consume the setup's submission queue (a worker process takes a moment to start). */
  const bothConsuming = async (prefix: string) => {
    const queue = new Queue(JOBS.submitLead.queue, { connection: client, prefix: queuePrefix(prefix) });
    while ((await queue.getWorkersCount()) < 2) await new Promise((r) => setTimeout(r, 100));
    await queue.close();
  };

  const newSchema = async (label: string) => {
    const schema = testSchema(label);
    schemas.push(schema);
    const db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    await db.destroy();
    return schema;
  };

  try {
    const a = await runSetup(
      'waterfall',
      { mode: 'waterfall', schema: await newSchema('bench_a') },
      LEADS,
      KILL,
    );
    const b = await runSetup(
      'by-bid',
      { mode: 'auction', rankBy: 'price', schema: await newSchema('bench_b') },
      LEADS,
      KILL,
    );
    // (c) learns first: its own leads, on the priors at the start, into the schema its measured run reads.
    const cFile = {
      mode: 'auction',
      roundMs: sabotaged('auction') ? SABOTAGED_ROUND_MS : DEFAULT_ROUND_MS,
      schema: await newSchema('bench_c'),
    } as const;
    await runSetup('learning', cFile, LEARNING_LEADS, { kill: false });
    // Every learning sale settled (past the 5 s return window) and read by the workers (every 2 s) before (c).
    await new Promise((r) => setTimeout(r, 7000));
    const c = await runSetup('by-value', cFile, LEADS, KILL);

    const net = (r: SetupResult) => r.sales.reduce((sum, s) => sum + (s.returned ? 0 : s.price), 0) / LEADS;
    const line = (r: SetupResult) => {
      const returned = r.sales.filter((s) => s.returned).length;
      return `$${net(r).toFixed(2)} (sold ${((100 * r.sold) / LEADS).toFixed(1)} %, ${returned} returned)`;
    };
    const byBuyer = (r: SetupResult) =>
      Object.keys(RETURN_SHARE)
        .map((id) => `${id} ${r.sales.filter((s) => s.buyer === id).length}`)
        .join(', ');
    console.log(`# sales by buyer: (a) ${byBuyer(a)}; (b) ${byBuyer(b)}; (c) ${byBuyer(c)}`);
    const vsA = net(c) / Math.max(net(a), 0.01);
    const vsB = net(c) / Math.max(net(b), 0.01);
    report({
      measure: `net revenue per lead after returns, ${LEADS.toLocaleString('en-US')} leads, (c) by expected value vs (a) waterfall`,
      product: line(c),
      baseline: line(a),
      ratio: fmt.ratio(vsA),
      goals: [{ measured: vsA, op: '>=', limit: 1.2, unit: '×' }],
    });
    report({
      measure: '(c) by expected value vs (b) auction by highest bid',
      product: line(c),
      baseline: line(b),
      ratio: fmt.ratio(vsB),
      goals: [{ measured: vsB, op: '>=', limit: 1.05, unit: '×' }],
    });
    const times = (r: SetupResult) =>
      `p50 ${fmt.ms(percentile(r.decisionMs, 50))}, p95 ${fmt.ms(percentile(r.decisionMs, 95))}`;
    console.log(`# decision time (b) auction by highest bid: ${times(b)}`);
    const p95 = (r: SetupResult) => percentile(r.decisionMs, 95);
    report({
      measure: 'decision time, submission → outcome stored, (c) vs (a)',
      product: times(c),
      baseline: times(a),
      ratio: fmt.ratio(p95(c) / Math.max(p95(a), 1)),
      goals: [
        { of: 'p95, (c) ÷ (a)', measured: p95(c) / Math.max(p95(a), 1), op: '<=', limit: 1, unit: '×' },
      ],
    });
    const recordings = await Promise.all(
      PING_POST_IDS.map(async (id) =>
        SandboxPingRecordingSchema.parse(
          await (await fetch(`${sandbox.url}/buyers/${id}/_sandbox/pings`)).json(),
        ),
      ),
    );
    const pings = recordings.reduce((sum, r) => sum + r.pings, 0);
    const identifying = recordings.reduce((sum, r) => sum + r.withFieldsBeyondAllowList, 0);
    report({
      measure: `pings with a field beyond the allow-list, of ${pings.toLocaleString('en-US')}`,
      product: String(identifying),
      baseline: '–',
      goals: [{ measured: identifying, op: '<=', limit: 0 }],
    });
    const capsExceeded = a.capsExceeded + b.capsExceeded + c.capsExceeded;
    report({
      measure: `caps exceeded, two workers each (mid-bidder ${MID_CAP_PER_HOUR}/h)`,
      product: String(capsExceeded),
      baseline: '–',
      goals: [{ measured: capsExceeded, op: '<=', limit: 0 }],
    });
    const stats = SandboxBuyersStatsSchema.parse(
      await (await fetch(`${sandbox.url}/_sandbox/buyers`)).json(),
    ).buyers;
    const repeated = stats.reduce((sum, s) => sum + s.repeatedAttempts, 0);
    const replays = stats.reduce((sum, s) => sum + s.replays, 0);
    report({
      measure: `attempts repeated at a buyer, a worker SIGKILLed in each of (a), (b), (c) (${c.killedAt ?? '–'} s into (c)'s arrivals; ${replays} idempotent replays)`,
      product: String(repeated),
      baseline: '–',
      goals: [
        { measured: repeated, op: '<=', limit: 0 },
        {
          of: 'runs with a kill',
          measured: [a, b, c].filter((r) => r.killedAt !== undefined).length,
          op: '>=',
          limit: 3,
        },
      ],
    });
    const late = [a, b, c].reduce((sum, r) => sum + (LEADS - r.beforeDeadline), 0);
    report({
      measure: 'leads not decided before their deadline, (a) + (b) + (c)',
      product: String(late),
      baseline: '–',
      goals: [{ measured: late, op: '<=', limit: 0 }],
    });
  } finally {
    client.disconnect();
    rmSync(dir, { recursive: true, force: true });
    for (const schema of schemas) await dropSchema(schema);
  }
});
