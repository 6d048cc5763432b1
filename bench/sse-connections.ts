// Event streams one BFF holds: /api/v1/lead/events for 1k, 5k and 10k sessions, against a bare Fastify route
// holding hijacked SSE responses the same way. Figure: memory (RSS) per held connection, product ÷ baseline,
// each read after a full garbage collection forced through the inspector. A stream that fails to open, or that
// the server drops while held, is counted at its level and fails that level's "held" goal.
// BENCH_SABOTAGE=sse-connections starts the product BFF (not the bare server) with a preload
// (lib/sabotage/event-streams.ts?leak) that makes each open event stream hold 64 KiB more: "RSS per connection
// ≤ 1.5×" must fail. Every stream is still held, so the "held" goals stay met.
import { setTimeout as sleep } from 'node:timers/promises';
import { sabotaged, smoke } from './lib/bench-options.js';
import { openEventStream, openEventStreams, type EventStream } from './lib/event-stream.js';
import { createLeadSessions, leadIdOf } from './lib/funnel-client.js';
import { withServices, type Service } from './lib/processes.js';
import { collectAndMeasure } from './lib/inspector.js';
import { fmt, report } from './lib/report.js';
import { benchSecrets, startBaseline, startBff, startRedis } from './lib/services.js';

const LEVELS = smoke ? [100, 200] : [1_000, 5_000, 10_000];
const SETTLE_MS = smoke ? 200 : 3_000;
/** The bad build's Node flags (see the top of this file). */
const LEAKY_STREAMS = ['--import', new URL('./lib/sabotage/event-streams.ts?leak', import.meta.url).href];

await withServices(async (track) => {
  const redis = track(await startRedis());
  const bff = track(
    await startBff({
      redisUrl: redis.url,
      secrets: benchSecrets(),
      inspect: true,
      nodeArgs: sabotaged('sse-connections') ? LEAKY_STREAMS : [],
    }),
  );
  const bare = track(await startBaseline('bare-sse.ts', { REDIS_URL: redis.url }, { inspect: true }));
  const cookies = await createLeadSessions(bff.url, LEVELS.at(-1)!);

  /** A stream that fails to open is noted (undefined in the list) rather than ending the run. */
  const orFailure = (open: (i: number) => Promise<EventStream>) => (i: number) =>
    open(i).catch((error: unknown) => {
      console.error(`event stream ${i} failed to open: ${(error as Error).message}`);
      return undefined;
    });
  const sides = {
    product: {
      service: bff as Service & { inspectPort?: number },
      open: orFailure((i) => openEventStream(`${bff.url}/api/v1/lead/events`, { cookie: cookies[i]! })),
      streams: [] as Array<EventStream | undefined>,
      idle: 0,
      notHeld: [] as number[],
    },
    baseline: {
      service: bare as Service & { inspectPort?: number },
      open: orFailure((i) => openEventStream(`${bare.url}/events/${leadIdOf(cookies[i]!)}`)),
      streams: [] as Array<EventStream | undefined>,
      idle: 0,
      notHeld: [] as number[],
    },
  };
  const notHeld = (streams: Array<EventStream | undefined>) =>
    streams.filter((stream) => stream === undefined || stream.dropped).length;
  const measure = (side: (typeof sides)['product']) => collectAndMeasure(side.service.inspectPort!);
  // Warm both servers up (code paths compiled, pools grown) before taking their idle size.
  // Streams lost while warming up count against the first level.
  const warmUpLost = { product: 0, baseline: 0 };
  for (const [name, side] of Object.entries(sides)) {
    const warmUp = await openEventStreams(LEVELS[0]!, side.open);
    warmUpLost[name as 'product'] = notHeld(warmUp);
    for (const stream of warmUp) stream?.close();
  }
  await sleep(SETTLE_MS);
  for (const side of Object.values(sides)) side.idle = (await measure(side)).rss;

  // One side at a time (the client cannot hold 2 × 10,000 sockets at once), each from its own idle size.
  const rss: Record<string, number[]> = { product: [], baseline: [] };
  const heap: Record<string, number[]> = { product: [], baseline: [] };
  for (const [name, side] of Object.entries(sides)) {
    for (const level of LEVELS) {
      const more = await openEventStreams(level - side.streams.length, (i) =>
        side.open(side.streams.length + i),
      );
      side.streams.push(...more);
      await sleep(SETTLE_MS);
      const usage = await measure(side);
      rss[name]!.push(usage.rss);
      heap[name]!.push(usage.heapUsed);
      side.notHeld.push(
        notHeld(side.streams) + (side.notHeld.length === 0 ? warmUpLost[name as 'product'] : 0),
      );
    }
    for (const stream of side.streams) stream?.close();
  }
  const perConnection = (name: string, i: number) =>
    (rss[name]![i]! - sides[name as 'product'].idle) / LEVELS[i]!;
  LEVELS.forEach((level, i) => {
    const lost = { product: sides.product.notHeld[i]!, baseline: sides.baseline.notHeld[i]! };
    report({
      measure: `SSE connections held, ${level.toLocaleString('en-US')} sessions`,
      product: `${level - lost.product} held, ${fmt.kb(perConnection('product', i))}/conn over idle`,
      baseline: `${level - lost.baseline} held, ${fmt.kb(perConnection('baseline', i))}/conn over idle`,
      goals: [
        { of: 'not held', measured: lost.product, op: '<=', limit: 0 },
        { of: 'baseline not held', measured: lost.baseline, op: '<=', limit: 0 },
      ],
    });
  });
  // The cost of one more connection, from the last two levels: both measured with connections already held,
  // so start-up garbage and warm-up allocations (which make the "over idle" figures noisy) cancel out.
  if (LEVELS.length > 1) {
    const [a, b] = [LEVELS.length - 2, LEVELS.length - 1];
    const slopeOf = (series: Record<string, number[]>, name: string) =>
      (series[name]![b]! - series[name]![a]!) / (LEVELS[b]! - LEVELS[a]!);
    const slope = (name: string) => slopeOf(rss, name);
    const ratio = slope('product') / Math.max(slope('baseline'), 1);
    report({
      measure: `SSE RSS per connection, ${LEVELS[a]!.toLocaleString('en-US')} → ${LEVELS[b]!.toLocaleString('en-US')} sessions`,
      product: `${fmt.kb(slope('product'))}/conn`,
      baseline: `${fmt.kb(slope('baseline'))}/conn (bare hijacked SSE)`,
      ratio: fmt.ratio(ratio),
      goals: [{ measured: ratio, op: '<=', limit: 1.5, unit: '×' }],
    });
    // Where it goes: the JavaScript heap's share (the rest is sockets, buffers and native handles).
    const heapRatio = slopeOf(heap, 'product') / Math.max(slopeOf(heap, 'baseline'), 1);
    report({
      measure: `SSE JS heap per connection, ${LEVELS[a]!.toLocaleString('en-US')} → ${LEVELS[b]!.toLocaleString('en-US')} sessions (information)`,
      product: `${fmt.kb(slopeOf(heap, 'product'))}/conn`,
      baseline: `${fmt.kb(slopeOf(heap, 'baseline'))}/conn`,
      ratio: fmt.ratio(heapRatio),
    });
  }
});
