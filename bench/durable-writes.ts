// Durable writes (issue 28, docs/adr/0018): the price of waiting for a replica (`WAIT 1`) on every lead write.
// The same BFF from source twice, against one primary with one replica: REDIS_WAIT_REPLICAS=1 (product) against
// REDIS_WAIT_REPLICAS=0 (baseline), alternated round by round. Figures: the step save and the partner post, each
// saturated at 50 connections (req/s), and the step save's p99 at half the baseline's capacity.
// BENCH_SABOTAGE=durable-writes runs the waiting BFF alone with V8's JIT off (`--jitless`), a build several times
// slower at everything it computes: both req/s ratios and the paced p99 must then miss their goals.
import { randomBytes, createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { borrowerLead } from '@funnel/testing/lead-traffic';
import { loadSeconds, rounds, sabotaged } from './lib/bench-options.js';
import { createLeadSession } from './lib/funnel-client.js';
import { load, type LoadResult } from './lib/load.js';
import { withServices } from './lib/processes.js';
import { fmt, report } from './lib/report.js';
import { NAME_STEP_SAMPLE } from './lib/samples.js';
import { benchSecrets, bffEnv, startBaseline, startRedis } from './lib/services.js';
import { median } from './lib/stats.js';

const apiKey = `fpk_${randomBytes(24).toString('base64url')}`;
const keyEntry = `bench:aff-bench:${createHash('sha256').update(apiKey).digest('hex')}:999999`;

await withServices(async (track) => {
  const primary = track(await startRedis());
  const replica = track(await startRedis({ replicaOf: primary.url }));
  const onReplica = new Redis(replica.url);
  for (;;) {
    if ((await onReplica.info('replication')).includes('master_link_status:up')) break;
    await new Promise((r) => setTimeout(r, 100));
  }
  onReplica.disconnect();
  const secrets = benchSecrets();

  type Target = { url: string; headers: Record<string, string>; body: string; method: 'PUT' | 'POST' };
  const targets: Record<string, Record<'step' | 'partner', Target>> = {};
  for (const [side, replicas] of [
    ['wait', '1'],
    ['nowait', '0'],
  ] as const) {
    const { url } = track(
      await startBaseline(
        'bff-sealing.ts',
        {
          ...bffEnv({
            redisUrl: primary.url,
            secrets,
            env: { REDIS_WAIT_REPLICAS: replicas, REDIS_WAIT_TIMEOUT_MS: '1000', PARTNER_API_KEYS: keyEntry },
          }),
          // Today's default set, so the two differ only in the wait.
          BENCH_SEALED: 'all',
        },
        { nodeArgs: side === 'wait' && sabotaged('durable-writes') ? ['--jitless'] : [] },
      ),
    );
    targets[side] = {
      step: {
        url: `${url}/api/v1/lead/steps/lgname`,
        method: 'PUT',
        headers: { 'content-type': 'application/json', cookie: await createLeadSession(url) },
        body: JSON.stringify(NAME_STEP_SAMPLE),
      },
      // No Idempotency-Key: each post creates and submits a lead (duplicates are off in benchSecrets).
      partner: {
        url: `${url}/api/v1/partner/leads`,
        method: 'POST',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${apiKey}` },
        body: JSON.stringify(borrowerLead(1)),
      },
    };
  }

  const run = async (side: string, what: 'step' | 'partner', seconds: number, overallRate?: number) => {
    const result = await load({ ...targets[side]![what], seconds, overallRate });
    if (result.errors + result.non2xx > 0)
      throw new Error(`${side} ${what}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
    return result;
  };

  /** Saturated req/s, WAIT against no WAIT, warmed up then alternated round by round; reported as a ratio. */
  const compareRps = async (what: 'step' | 'partner', measure: string, goal: number) => {
    for (const side of ['wait', 'nowait']) await run(side, what, 2);
    const rps: Record<string, number[]> = { wait: [], nowait: [] };
    for (let i = 0; i < rounds; i++) {
      for (const side of ['wait', 'nowait']) rps[side]!.push((await run(side, what, loadSeconds)).rps);
    }
    const [product, baseline] = [median(rps.wait!), median(rps.nowait!)];
    report({
      measure,
      product: fmt.rate(product),
      baseline: fmt.rate(baseline),
      ratio: fmt.ratio(product / baseline),
      goals: [{ measured: product / baseline, op: '>=', limit: goal, unit: '×' }],
    });
    return baseline;
  };

  const stepRps = await compareRps('step', 'step save req/s (-c 50), WAIT 1 vs no wait', 0.7);
  await compareRps('partner', 'partner post req/s (-c 50), WAIT 1 vs no wait', 0.7);

  const rate = Math.round(stepRps / 2);
  const paced: Record<'wait' | 'nowait', LoadResult[]> = { wait: [], nowait: [] };
  for (let i = 0; i < rounds; i++) {
    paced.wait.push(await run('wait', 'step', loadSeconds, rate));
    paced.nowait.push(await run('nowait', 'step', loadSeconds, rate));
  }
  const waitP99 = median(paced.wait.map((r) => r.p99));
  const nowaitP99 = median(paced.nowait.map((r) => r.p99));
  const achieved = median(paced.wait.map((r) => r.rps));
  report({
    measure: `step save p99 at ${fmt.rate(rate)} (50 % of no-wait capacity), WAIT 1 vs no wait`,
    product: `${fmt.ms(waitP99)} (${fmt.rate(achieved)} achieved)`,
    baseline: fmt.ms(nowaitP99),
    ratio: fmt.ratio(waitP99 / Math.max(nowaitP99, 1)),
    goals: [
      { measured: waitP99 / Math.max(nowaitP99, 1), op: '<=', limit: 2, unit: '×' },
      { of: 'rate kept', measured: achieved / rate, op: '>=', limit: 0.95, unit: '×' },
    ],
  });
});
