// Rate-limited lookup: GET /api/v1/lookup/zip/10001 with the Redis rate limiter on (never tripping), against
// the same route of the same build with every limit off (RATE_LIMIT_ENABLED=false): what the limiter costs.
// For information, also against a bare Fastify route giving the same answer: what the whole route costs.
// BENCH_SABOTAGE=lookup runs the limited BFF alone with V8's JIT off (`--jitless`), a build several times slower
// at everything it computes: the limiter's ratio must then miss its ≥ 0.7× goal.
import { loadSeconds, rounds, sabotaged } from './lib/bench-options.js';
import { load } from './lib/load.js';
import { withServices } from './lib/processes.js';
import { fmt, report } from './lib/report.js';
import { benchSecrets, startBaseline, startBff, startRedis } from './lib/services.js';
import { median } from './lib/stats.js';

await withServices(async (track) => {
  const redis = track(await startRedis());
  const secrets = benchSecrets();
  const limited = track(
    await startBff({ redisUrl: redis.url, secrets, nodeArgs: sabotaged('lookup') ? ['--jitless'] : [] }),
  );
  const unlimited = track(
    await startBff({ redisUrl: redis.url, secrets, env: { RATE_LIMIT_ENABLED: 'false' } }),
  );
  const place = await (await fetch(`${limited.url}/api/v1/lookup/zip/10001`)).json();
  const bare = track(
    await startBaseline('bare-zip-lookup.ts', { ZIP_PLACES: JSON.stringify({ '10001': place }) }),
  );
  const run = async (url: string, seconds: number) => {
    const path = url === bare.url ? '/lookup/zip/10001' : '/api/v1/lookup/zip/10001';
    const result = await load({ url: `${url}${path}`, seconds });
    if (result.errors + result.non2xx > 0)
      throw new Error(`${url}: ${result.errors} errors, ${result.non2xx} non-2xx answers`);
    return result.rps;
  };
  await run(limited.url, 2);
  await run(unlimited.url, 2);
  await run(bare.url, 2);
  const product: number[] = [];
  const baseline: number[] = [];
  const bareRoute: number[] = [];
  for (let i = 0; i < rounds; i++) {
    product.push(await run(limited.url, loadSeconds));
    baseline.push(await run(unlimited.url, loadSeconds));
    bareRoute.push(await run(bare.url, loadSeconds));
  }
  const ratio = median(product) / median(baseline);
  report({
    measure: 'zip lookup req/s, limiter on (-c 50)',
    product: fmt.rate(median(product)),
    baseline: `${fmt.rate(median(baseline))} (limiter off)`,
    ratio: fmt.ratio(ratio),
    goals: [{ measured: ratio, op: '>=', limit: 0.7, unit: '×' }],
  });
  // Not a goal of its own: how far the whole route (hooks, plugins, serialization) is from a bare route.
  report({
    measure: 'zip lookup req/s, limiter on, vs a bare route (information)',
    product: fmt.rate(median(product)),
    baseline: `${fmt.rate(median(bareRoute))} (bare Fastify route)`,
    ratio: fmt.ratio(median(product) / median(bareRoute)),
  });
});
