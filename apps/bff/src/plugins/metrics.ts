import fp from 'fastify-plugin';
import { PromMetrics } from '@funnel/server-runtime/prom-metrics';
import { collectDefaultMetrics } from 'prom-client';
import { failureReporter, type ReportFailure } from '../handled-failure.js';

/** The route label of every step save (`PUT /api/v1/lead/steps/<step>`), one series for all 25 steps. */
const STEP_ROUTE = '/api/v1/lead/steps/:step';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: BffMetrics;
    /** Logs and counts a failure the BFF answers around ({@link failureReporter}). */
    reportFailure: ReportFailure;
  }
}

/** The BFF's Prometheus metrics, per instance (sum them across instances). */
export class BffMetrics extends PromMetrics {
  readonly requests = this.counter(
    'funnel_http_requests_total',
    'HTTP requests by method, route pattern and status',
    ['method', 'route', 'status'],
  );
  readonly requestSeconds = this.histogram(
    'funnel_http_request_seconds',
    'HTTP request latency by method and route pattern',
    [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    ['method', 'route'],
  );
  readonly leadsCreated = this.counter(
    'funnel_leads_created_total',
    'Leads created, by source (funnel, partner)',
    ['source'],
  );
  readonly stepsSaved = this.counter('funnel_steps_saved_total', 'Funnel steps saved, by step', ['step']);
  readonly submitted = this.counter(
    'funnel_leads_submitted_total',
    'Leads submitted, by source (funnel, partner)',
    ['source'],
  );
  readonly duplicates = this.counter(
    'funnel_duplicate_leads_total',
    'Leads refused as a borrower already submitted within the window, by source and affiliate',
    ['source', 'affiliate'],
  );
  readonly decided = this.counter(
    'funnel_outcomes_pushed_total',
    'Final outcomes pushed to borrowers watching their lead on this instance, by outcome',
    ['outcome'],
  );
  readonly redisUp = this.gauge('funnel_redis_up', '1 while the Redis connection is ready');
  readonly handledFailures = this.counter(
    'funnel_handled_failures_total',
    'Failures answered around (a fallback or a refusal) instead of failing the request, by operation',
    ['operation'],
  );

  constructor(openSse: () => number, version: string) {
    super();
    collectDefaultMetrics({ register: this.registry });
    this.buildInfo(version);
    this.gauge('funnel_sse_connections', 'Open outcome event streams (SSE) on this instance', {
      collect() {
        this.set(openSse());
      },
    });
  }
}

/**
 * HTTP metrics by route pattern (never the raw URL: lead ids would explode the label set) and the funnel's
 * counters, read off the responses, so no route has to know about metrics. Served on GET /metrics.
 */
export default fp<{ openSse: () => number; version: string }>(
  async (app, { openSse, version }) => {
    const metrics = new BffMetrics(openSse, version);
    app.decorate('metrics', metrics);
    app.decorate('reportFailure', failureReporter(app.log, metrics));

    app.addHook('onResponse', async (request, reply) => {
      // The 25 step-save operations share one label, as they share one dashboard line.
      const route = request.routeOptions.config.step ? STEP_ROUTE : (request.routeOptions.url ?? 'unmatched');
      const status = reply.statusCode;
      metrics.requests.inc({ method: request.method, route, status });
      metrics.requestSeconds.observe({ method: request.method, route }, reply.elapsedTime / 1000);
      if (request.method === 'POST' && route === '/api/v1/lead' && status === 201) {
        metrics.leadsCreated.inc({ source: 'funnel' });
      } else if (route === STEP_ROUTE && status === 200) {
        metrics.stepsSaved.inc({ step: request.routeOptions.config.step });
      } else if (request.method === 'POST' && route === '/api/v1/lead/submit' && status < 300) {
        metrics.submitted.inc({ source: 'funnel' });
      } else if (
        request.method === 'POST' &&
        route === '/api/v1/partner/leads' &&
        status === 202 &&
        reply.getHeader('idempotent-replayed') === undefined
      ) {
        metrics.leadsCreated.inc({ source: 'partner' });
        metrics.submitted.inc({ source: 'partner' });
      }
    });

    app.get('/metrics', { schema: { hide: true } }, async (_request, reply) => {
      metrics.redisUp.set(app.redis.status === 'ready' ? 1 : 0);
      return reply.type(metrics.registry.contentType).send(await metrics.registry.metrics());
    });
  },
  { name: 'metrics', dependencies: ['redis'] },
);
