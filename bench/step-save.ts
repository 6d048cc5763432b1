// Step save: PUT /api/v1/lead/steps/lgname with a session, against a bare Fastify route with the same zod body
// and one HSET. Figures: throughput at 50 connections, and p99 at half the baseline's capacity. Then the price of
// sealing every personal answer at rest (issue 32): the same BFF, run from source twice, sealing today's set
// against the older sensitive-only set (the name step's two answers were in clear then).
import { loadSeconds, rounds } from './lib/bench-options.js';
import { createLeadSession } from './lib/funnel-client.js';
import { load, type LoadResult } from './lib/load.js';
import { withServices } from './lib/processes.js';
import { fmt, report } from './lib/report.js';
import { NAME_STEP_SAMPLE } from './lib/samples.js';
import { benchSecrets, bffEnv, startBaseline, startBff, startRedis } from './lib/services.js';
import { median } from './lib/stats.js';

await withServices(async (track) => {
  const redis = track(await startRedis());
  const secrets = benchSecrets();
  const bff = track(await startBff({ redisUrl: redis.url, secrets }));
  const bare = track(await startBaseline('bare-step-save.ts', { REDIS_URL: redis.url }));
  const cookie = await createLeadSession(bff.url);
  const body = JSON.stringify(NAME_STEP_SAMPLE);
  type Target = { url: string; headers: Record<string, string> };
  const targets: Record<string, Target> = {
    product: {
      url: `${bff.url}/api/v1/lead/steps/lgname`,
      headers: { 'content-type': 'application/json', cookie },
    },
    baseline: { url: `${bare.url}/steps/lgname`, headers: { 'content-type': 'application/json' } },
  };
  const run = async (side: string, seconds: number, overallRate?: number) => {
    const result = await load({ ...targets[side]!, method: 'PUT', body, seconds, overallRate });
    if (result.errors + result.non2xx > 0)
      throw new Error(`${side}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
    return result;
  };
  /** Saturated req/s of two targets, warmed up then alternated round by round; reported as a ratio. */
  const compareRps = async (sides: [product: string, baseline: string], measure: string, goal: number) => {
    for (const side of sides) await run(side, 2);
    const rps: [number[], number[]] = [[], []];
    for (let i = 0; i < rounds; i++) {
      for (const [j, side] of sides.entries()) rps[j]!.push((await run(side, loadSeconds)).rps);
    }
    const [product, baseline] = rps.map(median) as [number, number];
    report({
      measure,
      product: fmt.rate(product),
      baseline: fmt.rate(baseline),
      ratio: fmt.ratio(product / baseline),
      goals: [{ measured: product / baseline, op: '>=', limit: goal, unit: '×' }],
    });
    return baseline;
  };

  const baselineRps = await compareRps(['product', 'baseline'], 'step save req/s (-c 50)', 0.8);

  const rate = Math.round(baselineRps / 2);
  const paced: Record<'product' | 'baseline', LoadResult[]> = { product: [], baseline: [] };
  for (let i = 0; i < rounds; i++) {
    paced.product.push(await run('product', loadSeconds, rate));
    paced.baseline.push(await run('baseline', loadSeconds, rate));
  }
  const productP99 = median(paced.product.map((r) => r.p99));
  const baselineP99 = median(paced.baseline.map((r) => r.p99));
  const productAchieved = median(paced.product.map((r) => r.rps));
  report({
    measure: `step save p99 at ${fmt.rate(rate)} (50 % of baseline)`,
    product: `${fmt.ms(productP99)} (${fmt.rate(productAchieved)} achieved)`,
    baseline: fmt.ms(baselineP99),
    ratio: fmt.ratio(productP99 / Math.max(baselineP99, 1)),
    goals: [
      { measured: productP99 / Math.max(baselineP99, 1), op: '<=', limit: 2, unit: '×' },
      { of: 'rate kept', measured: productAchieved / rate, op: '>=', limit: 0.95, unit: '×' },
    ],
  });

  await bff.stop();
  await bare.stop();

  // Sealing: both variants from source under the same loader, alternated round by round.
  for (const sealed of ['sensitive', 'all']) {
    const { url } = track(
      await startBaseline('bff-sealing.ts', {
        ...bffEnv({ redisUrl: redis.url, secrets }),
        BENCH_SEALED: sealed,
      }),
    );
    targets[sealed] = {
      url: `${url}/api/v1/lead/steps/lgname`,
      headers: { 'content-type': 'application/json', cookie: await createLeadSession(url) },
    };
  }
  await compareRps(
    ['all', 'sensitive'],
    'step save req/s, every personal answer sealed (vs sensitive only)',
    0.9,
  );
});
