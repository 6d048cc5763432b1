import { createServer, type Server } from 'node:http';
import type { Queue } from 'bullmq';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 3, 5, 7.5, 10, 15, 30, 60];

/** The worker's Prometheus metrics (served on /metrics by {@link startHealthServer}). */
export class WorkerMetrics {
  readonly registry = new Registry();
  readonly upstreamCalls = new Counter({
    name: 'funnel_upstream_calls_total',
    help: 'Calls to the lender network, by endpoint and how they ended',
    labelNames: ['endpoint', 'result'] as const,
    registers: [this.registry],
  });
  readonly upstreamSeconds = new Histogram({
    name: 'funnel_upstream_call_seconds',
    help: 'Latency of calls to the lender network',
    labelNames: ['endpoint'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly decided = new Counter({
    name: 'funnel_worker_leads_decided_total',
    help: 'Leads this worker gave a final outcome, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly submitToDecision = new Histogram({
    name: 'funnel_submit_to_decision_seconds',
    help: 'From the submission to the final outcome being stored',
    buckets: [1, 2, 5, 10, 20, 30, 60, 120, 180, 240, 300, 330, 400],
    registers: [this.registry],
  });
  readonly pollLateness = new Histogram({
    name: 'funnel_poll_lateness_seconds',
    help: 'How late a poll ran after it was due (polls that come back to the worker that scheduled them)',
    buckets: [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
    registers: [this.registry],
  });
  readonly repairs = new Counter({
    name: 'funnel_reconciler_repairs_total',
    help: 'Leads the reconciler found in an impossible state and repaired, by kind',
    labelNames: ['kind'] as const,
    registers: [this.registry],
  });
  readonly erasureCompactions = new Counter({
    name: 'funnel_erasure_compactions_total',
    help: "Passes rewriting erased data out of Redis's AOF and RDB files, by result (rewritten, busy, refused, failed, no-persistence)",
    labelNames: ['result'] as const,
    registers: [this.registry],
  });
  readonly redisUp = new Gauge({
    name: 'funnel_redis_up',
    help: '1 while the Redis connection is ready',
    registers: [this.registry],
  });

  readonly buyerAttempts = new Counter({
    name: 'funnel_buyer_attempts_total',
    help: 'Waterfall attempts, by buyer and how they ended (sold, rejected, invalid, timeout, error, capped)',
    labelNames: ['buyer', 'result'] as const,
    registers: [this.registry],
  });
  readonly buyerAttemptSeconds = new Histogram({
    name: 'funnel_buyer_attempt_seconds',
    help: 'From the start of a waterfall attempt to its end, pending included, by buyer',
    labelNames: ['buyer'] as const,
    buckets: LATENCY_BUCKETS,
    registers: [this.registry],
  });
  readonly buyerRevenue = new Counter({
    name: 'funnel_buyer_revenue_dollars_total',
    help: 'What buyers paid for the leads they bought, by buyer',
    labelNames: ['buyer'] as const,
    registers: [this.registry],
  });

  readonly eventsDrained = new Counter({
    name: 'funnel_events_drained_total',
    help: 'Lead events written to the system of record (PostgreSQL)',
    registers: [this.registry],
  });

  constructor(queues: readonly Queue[]) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'funnel_queue_jobs',
      help: 'Jobs per queue and state',
      labelNames: ['queue', 'state'] as const,
      registers: [this.registry],
      async collect() {
        const states = ['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'] as const;
        await Promise.all(
          queues.map(async (queue) => {
            const counts = await queue.getJobCounts(...states).catch(() => undefined);
            if (!counts) return;
            for (const state of states) this.set({ queue: queue.name, state }, counts[state] ?? 0);
          }),
        );
      },
    });
  }

  /**
   * With a system of record: `eventBacklog` reads how many lead events wait in Redis for it (the drain's lag,
   * which grows while PostgreSQL is down and must come back to about zero), and `postgresUp` asks whether
   * PostgreSQL answers (the "PostgreSQL down" alert).
   */
  watchSystemOfRecord(eventBacklog: () => Promise<number>, postgresUp: () => Promise<boolean>): void {
    new Gauge({
      name: 'funnel_postgres_up',
      help: '1 while the system of record (PostgreSQL) answers a query',
      registers: [this.registry],
      async collect() {
        this.set((await postgresUp()) ? 1 : 0);
      },
    });
    new Gauge({
      name: 'funnel_event_outbox_backlog',
      help: 'Lead events waiting in Redis to be written to the system of record',
      registers: [this.registry],
      async collect() {
        const backlog = await eventBacklog().catch(() => undefined);
        if (backlog !== undefined) this.set(backlog);
      },
    });
  }
}

/** /healthz (the process answers), /readyz (Redis is up) and /metrics on a small HTTP listener. */
export function startHealthServer(
  port: number,
  metrics: WorkerMetrics,
  ready: () => boolean,
): Promise<{ server: Server; port: number }> {
  const server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0];
    if (path === '/healthz') {
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"ok"}');
    } else if (path === '/readyz') {
      const ok = ready();
      response
        .writeHead(ok ? 200 : 503, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: ok ? 'ready' : 'redis unavailable' }));
    } else if (path === '/metrics') {
      metrics.registry.metrics().then(
        (text) => response.writeHead(200, { 'content-type': metrics.registry.contentType }).end(text),
        () => response.writeHead(500).end(),
      );
    } else {
      response.writeHead(404).end();
    }
  });
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '0.0.0.0', () => {
      const address = server.address();
      resolve({ server, port: typeof address === 'object' && address ? address.port : port });
    });
  });
}
