// Step save: PUT /api/v1/lead/steps/lgname with a session, against a bare Fastify route with the same zod body
// and one HSET. Figures: throughput at 50 connections, and p99 at half the baseline's capacity.
import { loadSeconds, rounds } from './lib/bench-options.js';
import { createLeadSession } from './lib/funnel-client.js';
import { load, type LoadResult } from './lib/load.js';
import { withServices } from './lib/processes.js';
import { fmt, report } from './lib/report.js';
import { NAME_STEP_SAMPLE } from './lib/samples.js';
import { benchSecrets, startBaseline, startBff, startRedis } from './lib/services.js';
import { median } from './lib/stats.js';

await withServices(async (track) => {
  const redis = track(await startRedis());
  const bff = track(await startBff({ redisUrl: redis.url, secrets: benchSecrets() }));
  const bare = track(await startBaseline('bare-step-save.ts', { REDIS_URL: redis.url }));
  const cookie = await createLeadSession(bff.url);
  const body = JSON.stringify(NAME_STEP_SAMPLE);
  const targets = {
    product: {
      url: `${bff.url}/api/v1/lead/steps/lgname`,
      headers: { 'content-type': 'application/json', cookie },
    },
    baseline: { url: `${bare.url}/steps/lgname`, headers: { 'content-type': 'application/json' } },
  };
  const run = async (side: keyof typeof targets, seconds: number, overallRate?: number) => {
    const result = await load({ ...targets[side], method: 'PUT', body, seconds, overallRate });
    if (result.errors + result.non2xx > 0)
      throw new Error(`${side}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
    return result;
  };

  await run('product', 2);
  await run('baseline', 2);
  const saturated: Record<'product' | 'baseline', LoadResult[]> = { product: [], baseline: [] };
  for (let i = 0; i < rounds; i++) {
    saturated.product.push(await run('product', loadSeconds));
    saturated.baseline.push(await run('baseline', loadSeconds));
  }
  const productRps = median(saturated.product.map((r) => r.rps));
  const baselineRps = median(saturated.baseline.map((r) => r.rps));
  report({
    measure: 'step save req/s (-c 50)',
    product: fmt.rate(productRps),
    baseline: fmt.rate(baselineRps),
    ratio: fmt.ratio(productRps / baselineRps),
    goal: '≥ 0.80×',
    pass: productRps / baselineRps >= 0.8,
  });

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
    goal: '≤ 2×, rate kept',
    pass: productP99 / Math.max(baselineP99, 1) <= 2 && productAchieved >= rate * 0.95,
  });
});
