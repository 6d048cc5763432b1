import fp from 'fastify-plugin';
import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/** The route label of every step save (`PUT /api/v1/lead/steps/<step>`), one series for all 25 steps. */
const STEP_ROUTE = '/api/v1/lead/steps/:step';

declare module 'fastify' {
  interface FastifyInstance {
    metrics: BffMetrics;
  }
}

/** The BFF's Prometheus metrics, per instance (sum them across instances). */
export class BffMetrics {
  readonly registry = new Registry();
  readonly requests = new Counter({
    name: 'funnel_http_requests_total',
    help: 'HTTP requests by method, route pattern and status',
    labelNames: ['method', 'route', 'status'] as const,
    registers: [this.registry],
  });
  readonly requestSeconds = new Histogram({
    name: 'funnel_http_request_seconds',
    help: 'HTTP request latency by method and route pattern',
    labelNames: ['method', 'route'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
    registers: [this.registry],
  });
  readonly leadsCreated = new Counter({
    name: 'funnel_leads_created_total',
    help: 'Leads created, by source (funnel, partner)',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  readonly stepsSaved = new Counter({
    name: 'funnel_steps_saved_total',
    help: 'Funnel steps saved, by step',
    labelNames: ['step'] as const,
    registers: [this.registry],
  });
  readonly submitted = new Counter({
    name: 'funnel_leads_submitted_total',
    help: 'Leads submitted, by source (funnel, partner)',
    labelNames: ['source'] as const,
    registers: [this.registry],
  });
  readonly duplicates = new Counter({
    name: 'funnel_duplicate_leads_total',
    help: 'Leads refused as a borrower already submitted within the window, by source and affiliate',
    labelNames: ['source', 'affiliate'] as const,
    registers: [this.registry],
  });
  readonly decided = new Counter({
    name: 'funnel_outcomes_pushed_total',
    help: 'Final outcomes pushed to borrowers watching their lead on this instance, by outcome',
    labelNames: ['outcome'] as const,
    registers: [this.registry],
  });
  readonly redisUp = new Gauge({
    name: 'funnel_redis_up',
    help: '1 while the Redis connection is ready',
    registers: [this.registry],
  });

  constructor(openSse: () => number) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'funnel_sse_connections',
      help: 'Open outcome event streams (SSE) on this instance',
      registers: [this.registry],
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
export default fp<{ openSse: () => number }>(
  async (app, { openSse }) => {
    const metrics = new BffMetrics(openSse);
    app.decorate('metrics', metrics);

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
