import { randomBytes } from 'node:crypto';
import type { AddressInfo } from 'node:net';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, inject, it, vi } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { JOBS } from '@funnel/contracts/jobs';
import { LENDER_NETWORK_PATHS } from '@funnel/contracts/lender-network';
import { LeadJourneySchema } from '@funnel/contracts/lead-journey';
import { SandboxLeadSchema } from '@funnel/contracts/lender-sandbox';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { startTracing, type Tracing } from '@funnel/server-runtime/tracing';
import { awaitOutcomeEvent } from '@funnel/testing/lead-traffic';
import { startOtlpReceiver, type ReceivedSpan } from '@funnel/testing/otlp-receiver';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { freePort, startApp, type AppProcess } from '@funnel/testing/processes';
import { testKeyPrefix } from '@funnel/testing/redis-keys';
import { SUBMIT, answeredLead } from './complete-lead.js';
import { FUNNEL_NOW, STEP_ANSWERS } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-'.padEnd(40, 't');
const SERVER = 2;
const CLIENT = 3;
const PRODUCER = 4;
const CONSUMER = 5;

/**
 * One lead's trace (issue 44): the BFF in this process and a worker process, both exporting to a loopback OTLP
 * collector, the real lender sandbox as the buyer. From the submit request through the queue to the buyer's
 * answer and the outcome pushed to the browser, every span is in one trace, and the journey names it.
 */
describe("a lead's trace", () => {
  const schema = testSchema('tracing');
  const databaseUrl = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const secrets = {
    FIELD_ENCRYPTION_KEYS: `t1:${randomBytes(32).toString('base64')}`,
    SUPPRESSION_HASH_SECRET: randomBytes(32).toString('hex'),
  };
  let collector: Awaited<ReturnType<typeof startOtlpReceiver>>;
  let tracing: Tracing | undefined;
  let db: Kysely<Database>;
  let t: TestApp;
  let sandbox: AppProcess;
  let worker: AppProcess;
  let baseUrl: string;
  let sandboxUrl: string;
  // The answers are valid on FUNNEL_NOW; the submission runs on the real clock, as the worker's does.
  let clock: Date | undefined = FUNNEL_NOW;

  beforeAll(async () => {
    collector = await startOtlpReceiver();
    const [sandboxPort, metricsPort] = [await freePort(), await freePort()];
    sandboxUrl = `http://127.0.0.1:${sandboxPort}`;
    const prefix = testKeyPrefix('tracing');
    // The processes start together: each takes seconds, none needs another to start.
    const startingSandbox = startApp({
      entry: 'apps/lender-sandbox/src/server.ts',
      env: {
        SANDBOX_PORT: String(sandboxPort),
        SANDBOX_PUBLIC_URL: sandboxUrl,
        SANDBOX_LOG_LEVEL: 'warn',
        SANDBOX_SOLD_SHARE: '1',
        SANDBOX_PENDING_SHARE: '0',
        SANDBOX_LATENCY_MIN_MS: '0',
        SANDBOX_LATENCY_MAX_MS: '0',
      },
      readyUrl: `${sandboxUrl}/healthz`,
    });
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    const startingWorker = startApp({
      entry: 'apps/worker/src/main.ts',
      env: {
        ...secrets,
        REDIS_URL: inject('redisUrl'),
        REDIS_KEY_PREFIX: prefix,
        DATABASE_URL: databaseUrl,
        LENDER_NETWORK_URL: sandboxUrl,
        POLL_INTERVAL_MS: '100',
        WORKER_METRICS_PORT: String(metricsPort),
        LOG_LEVEL: 'warn',
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      },
      readyUrl: `http://127.0.0.1:${metricsPort}/readyz`,
      timeoutMs: 60_000,
    });
    // What server.ts does before it builds the app.
    tracing = await startTracing({ serviceName: 'funnel-bff', endpoint: collector.endpoint });
    t = await startTestApp({
      now: () => clock ?? new Date(),
      env: {
        ...secrets,
        REDIS_KEY_PREFIX: prefix,
        DATABASE_URL: databaseUrl,
        ADMIN_API_TOKEN: TOKEN,
        OTEL_EXPORTER_OTLP_ENDPOINT: collector.endpoint,
      },
    });
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    baseUrl = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
    [sandbox, worker] = await Promise.all([startingSandbox, startingWorker]);
  }, 120_000);

  afterAll(async () => {
    await worker?.stop();
    await sandbox?.stop();
    await t?.close();
    await tracing?.shutdown();
    await collector?.close();
    await db?.destroy();
    await dropSchema(schema);
  });

  it('runs from POST /api/v1/lead/submit through the queue and the buyer to the outcome push, in one trace', async () => {
    const { cookie, id: leadId } = await answeredLead(t.app);
    clock = undefined;
    // The outcome page's event stream, open before the submission so that the outcome is pushed to it.
    const outcome = awaitOutcomeEvent(baseUrl, cookie, 30_000);
    await vi.waitFor(() => expect(t.app.outcomeEvents.size).toBe(1), { timeout: 10_000 });
    const submitted = await fetch(`${baseUrl}/api/v1/lead/submit`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie, 'x-request-id': 'trace-test-1' },
      body: JSON.stringify(SUBMIT),
    });
    expect(submitted.status).toBe(202);
    expect((await outcome).outcome).toBe('sold');

    // The worker sends what it holds when it stops, as a deployed one does on SIGTERM.
    await worker.stop();
    const root = await vi.waitFor(
      async () => {
        await tracing!.flush();
        const submit = collector.spans.find(
          (span) => span.name === 'POST /api/v1/lead/submit' && span.attributes['funnel.lead.id'] === leadId,
        );
        expect(submit).toBeDefined();
        const trace = collector.spans.filter((span) => span.traceId === submit!.traceId);
        expect(trace.some((span) => span.name === 'outcome push')).toBe(true);
        return submit!;
      },
      { timeout: 15_000, interval: 200 },
    );
    const trace = collector.spans.filter((span) => span.traceId === root.traceId);
    const one = (name: string, kind: number) => {
      const found = trace.filter((span) => span.name === name && span.kind === kind);
      expect(found, `${name} among ${names(trace).join(', ')}`).not.toHaveLength(0);
      return found[0]!;
    };

    expect(root).toMatchObject({ service: 'funnel-bff', kind: SERVER, parentSpanId: '' });
    expect(root.attributes).toMatchObject({ 'funnel.request.id': 'trace-test-1' });
    const queue = JOBS.submitLead.queue;
    expect(one(`add ${queue}.${JOBS.submitLead.name}`, PRODUCER).service).toBe('funnel-bff');
    expect(one(`process ${queue}`, CONSUMER).service).toBe('funnel-worker');
    const buyerCall = one(`POST ${LENDER_NETWORK_PATHS.submit}`, CLIENT);
    expect(buyerCall).toMatchObject({
      service: 'funnel-worker',
      attributes: { 'http.response.status_code': 200 },
    });
    // The buyer was told the trace: its post came with the call span's traceparent.
    const received = SandboxLeadSchema.parse(
      await (await fetch(`${sandboxUrl}/_sandbox/leads/${leadId}`)).json(),
    );
    expect(received.traceparent).toBe(`00-${root.traceId}-${buyerCall.spanId}-01`);
    expect(one('outcome publish', 1)).toMatchObject({
      service: 'funnel-worker',
      attributes: { 'funnel.lead.id': leadId, 'funnel.outcome': 'sold' },
    });
    expect(one('outcome push', CONSUMER)).toMatchObject({ service: 'funnel-bff' });

    // Whole: every span's parent is a span of the same trace, up to the one root.
    const ids = new Set(trace.map((span) => span.spanId));
    expect(trace.filter((span) => span.parentSpanId === '')).toEqual([root]);
    expect(trace.filter((span) => span.parentSpanId !== '' && !ids.has(span.parentSpanId))).toEqual([]);
    // Ids, names and statuses only: nothing the borrower typed.
    const exported = JSON.stringify(collector.spans);
    for (const [, answer] of STEP_ANSWERS) {
      for (const value of Object.values(answer)) {
        if (typeof value === 'string' && value.length > 4) expect(exported).not.toContain(value);
      }
    }

    // The operator's journey of the lead names its trace.
    await vi.waitFor(
      async () => {
        const journey = await t.app.inject({
          method: 'GET',
          url: `/api/v1/admin/leads/${leadId}`,
          headers: { authorization: `Bearer ${TOKEN}` },
        });
        expect(journey.statusCode).toBe(200);
        expect(LeadJourneySchema.parse(journey.json()).traceId).toBe(root.traceId);
      },
      { timeout: 15_000, interval: 200 },
    );
  });
});

/** The trace's spans, for a failure message that says which are there. */
function names(spans: ReceivedSpan[]): string[] {
  return spans.map((span) => `${span.service} ${span.kind} ${span.name}`);
}
