import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { afterAll, expect, inject, it } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import { WorkerMetrics, startHealthServer } from '../src/metrics.js';

const keyPrefix = testKeyPrefix('worker-metrics');
const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
const queue = new Queue(JOBS.submitLead.queue, { connection: redis, prefix: queuePrefix(keyPrefix) });

afterAll(async () => {
  await queue.close();
  await deleteKeys(redis, keyPrefix);
  await redis.quit();
});

it('serves /healthz, /readyz and Prometheus metrics with queue counts by state', async () => {
  await queue.add(JOBS.submitLead.name, { leadId: 'x'.repeat(22) }, { delay: 60_000 });
  const metrics = new WorkerMetrics([queue]);
  metrics.upstreamCalls.inc({ endpoint: 'ping', result: 'timeout' });
  metrics.repairs.inc({ kind: 'enqueued' });
  let ready = true;
  const { server, port } = await startHealthServer(0, metrics, () => ready);
  try {
    const base = `http://127.0.0.1:${port}`;
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    ready = false;
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain('funnel_queue_jobs{queue="lead-submission",state="delayed"} 1');
    expect(text).toContain('funnel_upstream_calls_total{endpoint="ping",result="timeout"} 1');
    expect(text).toContain('funnel_reconciler_repairs_total{kind="enqueued"} 1');
    expect(text).toContain('funnel_poll_lateness_seconds_bucket');
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});
