// Outcome published → browser event: 500 leads hold /api/v1/lead/events; each gets an outcome change through
// the lead store (as the worker stores one), timed until the event arrives. Baseline: a bare server relaying
// Redis pub/sub to held SSE responses, timed from PUBLISH to arrival. Figure: p99, product − baseline.
// BENCH_SABOTAGE=sse-latency starts the product BFF (not the bare relay) with a preload
// (lib/sabotage/event-streams.ts?late) that holds every event-stream write 25 ms: the p99 must miss its +10 ms.
import { setTimeout as sleep } from 'node:timers/promises';
import { EncryptionKeysSchema } from '@funnel/lead-store/encryption-keys';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { rounds, sabotaged, smoke } from './lib/bench-options.js';
import { openEventStream, openEventStreams, type EventStream } from './lib/event-stream.js';
import { createLeadSessions, leadIdOf } from './lib/funnel-client.js';
import { withServices } from './lib/processes.js';
import { fmt, report } from './lib/report.js';
import { benchSecrets, redisClient, startBaseline, startBff, startRedis } from './lib/services.js';
import { median, percentile } from './lib/stats.js';

const LEADS = smoke ? 50 : 500;
const GAP_MS = 4;
const CHANNEL = 'bench:bare-outcomes';

await withServices(async (track) => {
  const redis = track(await startRedis());
  const secrets = benchSecrets();
  const lateWrites = ['--import', new URL('./lib/sabotage/event-streams.ts?late', import.meta.url).href];
  const bff = track(
    await startBff({ redisUrl: redis.url, secrets, nodeArgs: sabotaged('sse-latency') ? lateWrites : [] }),
  );
  const bare = track(await startBaseline('bare-sse.ts', { REDIS_URL: redis.url, CHANNEL }));
  const client = redisClient(redis.url);
  const store = new LeadStore(
    client,
    new FieldCipher(EncryptionKeysSchema.parse(secrets.FIELD_ENCRYPTION_KEYS!)),
    { keyPrefix: 'bench:', ttlMs: 3_600_000 },
  );
  try {
    const cookies = await createLeadSessions(bff.url, LEADS);
    const leadIds = cookies.map(leadIdOf);

    /** Sends one change per lead, GAP_MS apart, and returns each one's publish → arrival time. */
    const measure = async (streams: EventStream[], publish: (leadId: string) => Promise<unknown>) => {
      const sentAt = new Map<number, number>();
      const latencies: number[] = [];
      const arrived = new Promise<void>((resolve) => {
        streams.forEach((stream, i) =>
          stream.onOutcome((receivedAt) => {
            const start = sentAt.get(i);
            if (start === undefined) return;
            sentAt.delete(i);
            latencies.push(receivedAt - start);
            if (latencies.length === streams.length) resolve();
          }),
        );
      });
      for (let i = 0; i < leadIds.length; i++) {
        sentAt.set(i, performance.now());
        await publish(leadIds[i]!);
        await sleep(GAP_MS);
      }
      await Promise.race([arrived, sleep(10_000)]);
      if (latencies.length < streams.length)
        throw new Error(`${streams.length - latencies.length} outcome events never arrived`);
      return latencies;
    };

    const p99s = { product: [] as number[], baseline: [] as number[] };
    let seq = 0;
    for (let round = 0; round < rounds; round++) {
      // Fresh streams each round, so each listener above belongs to one round only.
      const product = await openEventStreams(LEADS, (i) =>
        openEventStream(`${bff.url}/api/v1/lead/events`, { cookie: cookies[i]! }),
      );
      const baseline = await openEventStreams(LEADS, (i) =>
        openEventStream(`${bare.url}/events/${leadIds[i]}`),
      );
      await sleep(500);
      seq++;
      p99s.product.push(
        percentile(await measure(product, (id) => store.setOutcome(id, { outcome: 'pending' })), 99),
      );
      p99s.baseline.push(
        percentile(
          await measure(baseline, (id) => client.publish(CHANNEL, JSON.stringify({ leadId: id, seq }))),
          99,
        ),
      );
      for (const stream of [...product, ...baseline]) stream.close();
    }
    const product = median(p99s.product);
    const baseline = median(p99s.baseline);
    report({
      measure: `outcome published → browser event p99, ${LEADS} connected leads`,
      product: fmt.ms(product),
      baseline: `${fmt.ms(baseline)} (bare pub/sub relay)`,
      ratio: `+${fmt.ms(product - baseline)}`,
      goals: [{ of: 'over baseline', measured: product - baseline, op: '<=', limit: 10, unit: ' ms' }],
    });
  } finally {
    client.disconnect();
  }
});
