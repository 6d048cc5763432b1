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
  const metrics = new WorkerMetrics([queue], '2.3.0-test');
  metrics.upstreamCalls.inc({ endpoint: 'ping', result: 'timeout' });
  metrics.repairs.inc({ kind: 'enqueued' });
  let ready = true;
  const { server, port } = await startHealthServer(0, metrics, () => ready);
  try {
    const base = `http://127.0.0.1:${port}`;
    const health = await fetch(`${base}/healthz`);
    expect(health.status).toBe(200);
    // Which build answers, for an operator checking a rollout.
    expect(await health.json()).toEqual({ status: 'ok', version: '2.3.0-test' });
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    ready = false;
    expect((await fetch(`${base}/readyz`)).status).toBe(503);
    const text = await (await fetch(`${base}/metrics`)).text();
    expect(text).toContain('funnel_queue_jobs{queue="lead-submission",state="delayed"} 1');
    expect(text).toContain('funnel_upstream_calls_total{endpoint="ping",result="timeout"} 1');
    expect(text).toContain('funnel_reconciler_repairs_total{kind="enqueued"} 1');
    expect(text).toContain('funnel_poll_lateness_seconds_bucket');
    expect(text).toContain(`funnel_build_info{version="2.3.0-test",node="${process.versions.node}"} 1`);
  } finally {
    await new Promise((resolve) => server.close(resolve));
  }
});

it('answers a scrape around a gauge whose read fails, and logs and counts the failure', async () => {
  const logged: Array<{ details: object; message: string }> = [];
  const metrics = new WorkerMetrics([queue], '2.3.0-test', {
    error: (details, message) => logged.push({ details, message }),
  });
  metrics.watchSystemOfRecord(
    () => Promise.reject(new Error('the outbox could not be read')),
    () => Promise.resolve(true),
  );
  expect(await metrics.registry.metrics()).toContain('funnel_postgres_up 1');
  // The count is written before the gauge that fails is read: the next scrape shows it.
  expect(await metrics.registry.metrics()).toContain(
    'funnel_handled_failures_total{operation="event_backlog"} 1',
  );
  expect(logged).toHaveLength(2);
  expect(logged[0]?.message).toBe('failure answered around');
  expect(String((logged[0]?.details as { err: Error }).err)).toContain('the outbox could not be read');
});
