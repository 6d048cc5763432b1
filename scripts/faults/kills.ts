/**
 * The fault suite's first scenario (issue 9): real processes (BFF, workers, lender sandbox, a redis-server of its own with AOF)
 * under traffic through the funnel API and the partner API while it kills workers, kills Redis and the sandbox
 * injects faults; then it checks every lead and prints one table.
 *
 * Run by scripts/fault-suite.ts (`npm run test:faults -- --only kills`); `short` is the shorter run for `npm test`.
 * Fails when a lead is lost or stuck, a lead was sold twice upstream, or a key made two leads.
 */
import { createHash, randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { freePort, startRedisServer, type AppProcess } from '@funnel/testing/processes';
import {
  configureSandbox,
  faultSecrets,
  loopbackUrl,
  startFaultBff,
  startFaultSandbox,
  startFaultWorker,
} from './stack.js';
import { borrowerLead, sendPartnerLead, walkFunnelLead } from '@funnel/testing/lead-traffic';

const PREFIX = 'faults:';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

let borrowers = 0;

/** A distinct borrower per lead (SSN and email), as real traffic has: the BFF refuses a borrower twice. */
function leadBody(): Record<string, unknown> {
  borrowers += 1;
  return borrowerLead(borrowers);
}

const apiKey = `fpk_${randomBytes(24).toString('base64url')}`;
const keyEntry = `faults:aff-faults:${createHash('sha256').update(apiKey).digest('hex')}:600000`;

/** Runs the scenario and prints its table; true when it passed. */
export async function runKills(short: boolean): Promise<boolean> {
  const PARTNER_LEADS = short ? 60 : 220;
  const FUNNEL_LEADS = short ? 20 : 90;
  const aofDir = mkdtempSync(path.join(tmpdir(), 'fault-suite-redis-'));
  const redisServer = await startRedisServer({ aofDir });
  const redis = new Redis(redisServer.url, { maxRetriesPerRequest: null });
  redis.on('error', () => undefined);
  const sandboxPort = await freePort();
  const sandboxUrl = loopbackUrl(sandboxPort);
  const processes: AppProcess[] = [];
  const secrets = faultSecrets('faults');
  try {
    const sandbox = await startFaultSandbox({ port: sandboxPort, latencyMs: [10, 60] });
    processes.push(sandbox);
    await configureSandbox(sandboxUrl, {
      pendingShare: 0.7,
      pendingMinMs: 1000,
      pendingMaxMs: 8000,
      soldShare: 0.5,
    });

    const redisEnv = { REDIS_URL: redisServer.url, REDIS_KEY_PREFIX: PREFIX };
    const bffPort = await freePort();
    const bffUrl = loopbackUrl(bffPort);
    const bff = await startFaultBff({
      port: bffPort,
      redis: redisEnv,
      partnerKeyEntry: keyEntry,
      deadlineMs: 60_000,
      secrets,
    });
    processes.push(bff);

    const startWorker = async () =>
      startFaultWorker({
        metricsPort: await freePort(),
        redis: redisEnv,
        sandboxUrl,
        secrets,
        env: { POLL_INTERVAL_MS: '2000' },
      });
    let workerA = await startWorker();
    let workerB = await startWorker();
    processes.push(workerA, workerB);

    // Traffic.
    const partnerResults: Array<{ key: string; leadIds: Set<string> }> = [];
    const submittedAt = new Map<string, number>();
    async function partnerLead(): Promise<void> {
      const key = `order-${randomBytes(8).toString('hex')}`;
      const record = { key, leadIds: new Set<string>() };
      partnerResults.push(record);
      const leadId = await sendPartnerLead({
        baseUrl: bffUrl,
        apiKey,
        idempotencyKey: key,
        body: leadBody(),
      });
      record.leadIds.add(leadId);
      if (!submittedAt.has(leadId)) submittedAt.set(leadId, Date.now());
    }

    const funnelLeadIds: string[] = [];
    async function funnelLead(): Promise<void> {
      const { leadId } = await walkFunnelLead(bffUrl, leadBody());
      funnelLeadIds.push(leadId);
      submittedAt.set(leadId, Date.now());
    }

    // When each fault acted: a lead whose decision-to-storage interval overlaps one is judged against the
    // after-fault target; Redis outages are reported apart (the targets name worker kills and upstream faults).
    const faults: Array<{ kind: 'worker' | 'upstream' | 'redis'; from: number; to: number }> = [];
    const log = (message: string) =>
      console.log(`[faults +${((Date.now() - t0) / 1000).toFixed(1)}s] ${message}`);
    const t0 = Date.now();
    const pool = async (count: number, run: () => Promise<void>, parallel: number) => {
      let next = 0;
      await Promise.all(
        Array.from({ length: parallel }, async () => {
          while (next < count) {
            next += 1;
            await run();
          }
        }),
      );
    };

    // Phase 1: steady traffic, then a worker SIGKILLed in the middle of posts.
    log('phase 1: steady traffic, worker A killed mid-posts');
    const phase1 = Promise.all([
      pool(Math.floor(PARTNER_LEADS / 3), partnerLead, 8),
      pool(Math.floor(FUNNEL_LEADS / 2), funnelLead, 3),
    ]);
    await sleep(short ? 1500 : 3000);
    await workerA.kill();
    faults.push({ kind: 'worker', from: Date.now(), to: Date.now() });
    log('worker A SIGKILLed');
    await phase1;
    workerA = await startWorker();
    processes.push(workerA);

    // Phase 2: upstream fault mix.
    log('phase 2: upstream fault mix (5xx, resets, malformed JSON, timeouts)');
    await configureSandbox(sandboxUrl, {
      fault5xxRate: 0.05,
      faultResetRate: 0.03,
      faultMalformedRate: 0.03,
      faultTimeoutRate: 0.03,
      timeoutHoldMs: 6000,
    });
    const upstreamFrom = Date.now();
    await Promise.all([
      pool(Math.floor(PARTNER_LEADS / 3), partnerLead, 8),
      pool(FUNNEL_LEADS - Math.floor(FUNNEL_LEADS / 2), funnelLead, 3),
      (async () => {
        await sleep(2000);
        await workerB.kill();
        faults.push({ kind: 'worker', from: Date.now(), to: Date.now() });
        log('worker B SIGKILLed');
        workerB = await startWorker();
        processes.push(workerB);
      })(),
    ]);
    await configureSandbox(sandboxUrl, {
      fault5xxRate: 0,
      faultResetRate: 0,
      faultMalformedRate: 0,
      faultTimeoutRate: 0,
    });
    // A request held before the switch still answers up to timeoutHoldMs later.
    faults.push({ kind: 'upstream', from: upstreamFrom, to: Date.now() + 6000 });

    // Phase 3: Redis kill -9 during a partner burst.
    log('phase 3: Redis killed during a partner burst');
    let recoveredS = Number.NaN;
    await Promise.all([
      pool(PARTNER_LEADS - 2 * Math.floor(PARTNER_LEADS / 3), partnerLead, 12),
      (async () => {
        await sleep(800);
        await redisServer.kill();
        const downAt = Date.now();
        log('redis-server killed (-9)');
        await sleep(5000);
        await redisServer.start();
        const back = Date.now();
        log('redis-server restarted (AOF)');
        while (
          !(await fetch(`${bffUrl}/readyz`).then(
            (r) => r.ok,
            () => false,
          ))
        )
          await sleep(50);
        recoveredS = (Date.now() - back) / 1000;
        faults.push({ kind: 'redis', from: downAt, to: Date.now() });
      })(),
    ]);

    // Settle: wait until every lead is final, or the deadline and the reconciler's grace have passed.
    log('settling');
    const allLeadIds = [...new Set([...partnerResults.flatMap((r) => [...r.leadIds]), ...funnelLeadIds])];
    const settleUntil = Date.now() + 60_000 + 25_000;
    const outcomes = new Map<string, { outcome: string; at?: string }>();
    while (Date.now() < settleUntil) {
      for (const id of allLeadIds) {
        if (outcomes.get(id)?.outcome && outcomes.get(id)!.outcome !== 'pending') continue;
        const raw = await redis.hget(`${PREFIX}lead:${id}`, '_outcome').catch(() => null);
        outcomes.set(id, raw ? (JSON.parse(raw) as { outcome: string; at: string }) : { outcome: 'missing' });
      }
      const open = [...outcomes.values()].filter((o) => o.outcome === 'pending' || o.outcome === 'missing');
      if (open.length === 0) break;
      await sleep(1000);
    }

    // Judge.
    const final = [...outcomes.values()].filter((o) => ['sold', 'rejected', 'no_lender'].includes(o.outcome));
    const lost = [...outcomes.values()].filter((o) => o.outcome === 'missing').length;
    const stuck = [...outcomes.values()].filter((o) => o.outcome === 'pending').length;
    const posts = { zero: 0, one: 0, more: 0 };
    let secondUpstream = 0;
    const lateness: Array<{ s: number; kind: 'steady' | 'worker/upstream' | 'redis' }> = [];
    const stats = (await (await fetch(`${sandboxUrl}/_sandbox/stats`)).json()) as {
      distinctLeads: number;
      postsByPartnerLeadId: Record<string, number>;
    };
    for (const id of allLeadIds) {
      const view = await fetch(`${sandboxUrl}/_sandbox/leads/${id}`);
      if (view.status === 404) {
        posts.zero += 1;
        continue;
      }
      const lead = (await view.json()) as { posts: number; decidedAt?: string; receivedAt: string };
      if (lead.posts === 1) posts.one += 1;
      else posts.more += 1;
      const outcome = outcomes.get(id);
      if (lead.decidedAt && outcome?.at && outcome.outcome !== 'no_lender') {
        const decided = Date.parse(lead.decidedAt);
        const stored = Date.parse(outcome.at);
        const hit = faults.filter((f) => f.from <= stored && f.to >= decided - 2000);
        const kind = hit.some((f) => f.kind === 'redis')
          ? 'redis'
          : hit.length > 0 || lead.posts > 1
            ? 'worker/upstream'
            : 'steady';
        lateness.push({ s: (stored - decided) / 1000, kind });
      }
    }
    secondUpstream = stats.distinctLeads - (posts.one + posts.more);
    const leadsPerKey = partnerResults.map((r) => r.leadIds.size);
    const keysWithTwo = leadsPerKey.filter((n) => n > 1).length;
    const pct = (values: number[], p: number) => {
      if (values.length === 0) return 0;
      const sorted = [...values].sort((a, b) => a - b);
      return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
    };
    const of = (kind: string) => lateness.filter((l) => l.kind === kind).map((l) => l.s);
    const line = (values: number[]) =>
      `${fmt(pct(values, 50))} / ${fmt(pct(values, 99))} / ${fmt(Math.max(0, ...values))}  (n=${values.length})`;
    const fmt = (n: number) => n.toFixed(2);

    // Error-level lines (pino level ≥ 50) and warnings: errors are for what needs a person.
    const levels = (output: string) => {
      const counts = { error: 0, warn: 0 };
      for (const match of output.matchAll(/"level":(\d+)/g)) {
        if (Number(match[1]) >= 50) counts.error += 1;
        else if (Number(match[1]) === 40) counts.warn += 1;
      }
      return counts;
    };
    const bffLines = levels(bff.output());
    const workerLines = processes
      .filter((p) => p !== bff && p !== sandbox)
      .map((p) => levels(p.output()))
      .reduce((a, b) => ({ error: a.error + b.error, warn: a.warn + b.warn }), { error: 0, warn: 0 });
    const rows: Array<[string, string]> = [
      [
        'leads (funnel / partner)',
        `${allLeadIds.length} (${funnelLeadIds.length} / ${allLeadIds.length - funnelLeadIds.length})`,
      ],
      ['leads final / lost / stuck', `${final.length} / ${lost} / ${stuck}`],
      ['upstream posts per lead 0 / 1 / >1', `${posts.zero} / ${posts.one} / ${posts.more}`],
      ['second upstream leads', String(secondUpstream)],
      ['leads per idempotency key (max), keys with >1', `${Math.max(...leadsPerKey)} , ${keysWithTwo}`],
      ['lateness steady p50 / p99 / max (s)', line(of('steady'))],
      ['lateness after worker kill / upstream fault (s)', line(of('worker/upstream'))],
      ['lateness across the Redis outage (s)', line(of('redis'))],
      ['seconds to recover after Redis returns', fmt(recoveredS)],
      ['log lines error / warn: BFF', `${bffLines.error} / ${bffLines.warn}`],
      ['log lines error / warn: workers', `${workerLines.error} / ${workerLines.warn}`],
    ];
    const width = Math.max(...rows.map(([k]) => k.length));
    console.log(`\nfault suite${short ? ' (--short)' : ''}`);
    for (const [k, v] of rows) console.log(`  ${k.padEnd(width)}  ${v}`);
    const errorKinds = new Map<string, number>();
    for (const p of processes.filter((p) => p !== sandbox)) {
      for (const line of p.output().split('\n')) {
        const match = /"level":(\d+).*"msg":"([^"]*)"/.exec(line);
        if (match && Number(match[1]) >= 50) {
          const err = /"message":"([^"]{0,80})/.exec(line)?.[1] ?? '';
          const kind = `${match[2]!}${err ? `: ${err}` : ''}`;
          errorKinds.set(kind, (errorKinds.get(kind) ?? 0) + 1);
        }
      }
    }
    if (errorKinds.size > 0) console.log(`  error lines: ${JSON.stringify(Object.fromEntries(errorKinds))}`);
    const ok = lost === 0 && stuck === 0 && secondUpstream === 0 && keysWithTwo === 0;
    console.log(ok ? '\nPASS' : '\nFAIL');
    return ok;
  } finally {
    for (const p of processes.reverse()) await p.stop(2000).catch(() => undefined);
    redis.disconnect();
    await redisServer.kill();
    rmSync(aofDir, { recursive: true, force: true });
  }
}
