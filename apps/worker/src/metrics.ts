import { createServer, type Server } from 'node:http';
import type { Queue } from 'bullmq';
import { PromMetrics } from '@funnel/server-runtime/prom-metrics';
import { collectDefaultMetrics } from 'prom-client';

const LATENCY_BUCKETS = [0.05, 0.1, 0.25, 0.5, 1, 1.5, 2, 2.5, 3, 5, 7.5, 10, 15, 30, 60];

/** Where a failure answered around is logged (the worker's pino logger). */
interface FailureLog {
  error(details: object, message: string): void;
}

/**
 * The places where the worker answers around a failure: a metric whose read failed is left out of the scrape
 * (queue_counts, event_backlog); a stopping worker that could not take itself off the buyers' worker list is
 * dropped from it when its heartbeat expires (buyer_worker_forget).
 */
type HandledFailure = 'queue_counts' | 'event_backlog' | 'buyer_worker_forget';

/** The worker's Prometheus metrics (served on /metrics by {@link startHealthServer}). */
export class WorkerMetrics extends PromMetrics {
  /** The build running here (APP_VERSION), answered by /healthz. */
  readonly version: string;
  readonly upstreamCalls = this.counter(
    'funnel_upstream_calls_total',
    'Calls to the lender network, by endpoint and how they ended',
    ['endpoint', 'result'],
  );
  readonly upstreamSeconds = this.histogram(
    'funnel_upstream_call_seconds',
    'Latency of calls to the lender network',
    LATENCY_BUCKETS,
    ['endpoint'],
  );
  readonly decided = this.counter(
    'funnel_worker_leads_decided_total',
    'Leads this worker gave a final outcome, by outcome',
    ['outcome'],
  );
  readonly submitToDecision = this.histogram(
    'funnel_submit_to_decision_seconds',
    'From the submission to the final outcome being stored',
    [1, 2, 5, 10, 20, 30, 60, 120, 180, 240, 300, 330, 400],
  );
  readonly pollLateness = this.histogram(
    'funnel_poll_lateness_seconds',
    "How late a parked poll started after the due time stored with its job, on whichever worker ran it (the lender network's polls and the buyers' waterfall's pending waits)",
    [0.01, 0.05, 0.1, 0.25, 0.5, 1, 2, 5, 10, 30],
  );
  readonly repairs = this.counter(
    'funnel_reconciler_repairs_total',
    'Leads the reconciler found in an impossible state and repaired, by kind',
    ['kind'],
  );
  readonly erasureCompactions = this.counter(
    'funnel_erasure_compactions_total',
    "Passes rewriting erased data out of Redis's AOF and RDB files, by result (rewritten, busy, refused, failed, no-persistence)",
    ['result'],
  );
  readonly redisUp = this.gauge('funnel_redis_up', '1 while the Redis connection is ready');

  readonly buyerAttempts = this.counter(
    'funnel_buyer_attempts_total',
    'Waterfall attempts, by buyer and how they ended (sold, rejected, invalid, timeout, error, capped)',
    ['buyer', 'result'],
  );
  readonly buyerAttemptSeconds = this.histogram(
    'funnel_buyer_attempt_seconds',
    'From the start of a waterfall attempt to its end, pending included, by buyer',
    LATENCY_BUCKETS,
    ['buyer'],
  );
  readonly buyerDecisionToOutcome = this.histogram(
    'funnel_buyer_decision_to_outcome_seconds',
    "From a buyer's deciding answer being received to the lead's outcome stored and published, by buyer (lender-network without a buyers file)",
    LATENCY_BUCKETS,
    ['buyer'],
  );
  readonly buyerSaturated = this.counter(
    'funnel_buyer_saturated_total',
    "Times a lead found its buyer's share of the worker full (ADR 0017), by buyer and what it did: waited (its job parked off the worker's slots) or moved_on (to the next buyer)",
    ['buyer', 'action'],
  );
  readonly buyerRevenue = this.counter(
    'funnel_buyer_revenue_dollars_total',
    'What buyers paid for the leads they bought, by buyer',
    ['buyer'],
  );
  readonly buyerBreakerTransitions = this.counter(
    'funnel_buyer_breaker_transitions_total',
    "Changes of a buyer's circuit breaker made by this worker (ADR 0022), by buyer and the position it moved to (open, half-open, closed)",
    ['buyer', 'to'],
  );
  readonly buyerBreakerSkips = this.counter(
    'funnel_buyer_breaker_skips_total',
    'Leads this worker passed a buyer over for because its breaker was open or its trial taken, by buyer',
    ['buyer'],
  );

  readonly handledFailures = this.counter(
    'funnel_handled_failures_total',
    'Failures this worker answered around (a stale gauge, a cleanup left to expiry) instead of failing, by operation',
    ['operation'],
  );

  readonly eventsDrained = this.counter(
    'funnel_events_drained_total',
    'Lead events written to the system of record (PostgreSQL)',
  );

  constructor(
    queues: readonly Queue[],
    version: string,
    private readonly log: FailureLog = { error: () => undefined },
  ) {
    super();
    collectDefaultMetrics({ register: this.registry });
    this.buildInfo(version);
    this.version = version;
    const report = (operation: HandledFailure, error: unknown) => this.reportFailure(operation, error);
    this.gauge('funnel_queue_jobs', 'Jobs per queue and state', {
      labelNames: ['queue', 'state'],
      async collect() {
        const states = ['waiting', 'active', 'delayed', 'completed', 'failed', 'prioritized'] as const;
        await Promise.all(
          queues.map(async (queue) => {
            const counts = await queue
              .getJobCounts(...states)
              .catch((error: unknown) => report('queue_counts', error));
            if (!counts) return;
            for (const state of states) this.set({ queue: queue.name, state }, counts[state] ?? 0);
          }),
        );
      },
    });
  }

  /** Logs a failure the worker answers around, with its cause, and counts it; answers undefined. */
  reportFailure(operation: HandledFailure, error: unknown): undefined {
    this.handledFailures.inc({ operation });
    this.log.error({ err: error, operation }, 'failure answered around');
    return undefined;
  }

  /** `funnel_buyer_in_flight{buyer}`: each buyer's calls in flight in this worker, against its share. */
  watchBulkheads(buyers: () => readonly string[], inFlight: (buyer: string) => number): void {
    this.gauge(
      'funnel_buyer_in_flight',
      "Calls in flight per buyer in this worker (at most the buyer's concurrency)",
      {
        labelNames: ['buyer'],
        collect() {
          for (const buyer of buyers()) this.set({ buyer }, inFlight(buyer));
        },
      },
    );
  }

  /**
   * With a system of record: `eventBacklog` reads how many lead events wait in Redis for it (the drain's lag,
   * which grows while PostgreSQL is down and must come back to about zero), and `postgresUp` asks whether
   * PostgreSQL answers (the "PostgreSQL down" alert).
   */
  watchSystemOfRecord(eventBacklog: () => Promise<number>, postgresUp: () => Promise<boolean>): void {
    const report = (operation: HandledFailure, error: unknown) => this.reportFailure(operation, error);
    this.gauge('funnel_postgres_up', '1 while the system of record (PostgreSQL) answers a query', {
      async collect() {
        this.set((await postgresUp()) ? 1 : 0);
      },
    });
    this.gauge(
      'funnel_event_outbox_backlog',
      'Lead events waiting in Redis to be written to the system of record',
      {
        async collect() {
          const backlog = await eventBacklog().catch((error: unknown) => report('event_backlog', error));
          if (backlog !== undefined) this.set(backlog);
        },
      },
    );
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
      response
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ status: 'ok', version: metrics.version }));
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
