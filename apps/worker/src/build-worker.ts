import type { Logger } from 'pino';
import { JOBS } from '@funnel/contracts/jobs';
import { ERASURE_COMPACTION_QUEUE } from '@funnel/lead-store/disk-erasure';
import { EventOutbox } from '@funnel/lead-store/event-outbox';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { SuppressionList } from '@funnel/lead-store/suppression-list';
import { JobQueues, startQueueWorker, type EnqueueOptions } from '@funnel/server-runtime/job-queue';
import { createRedis, describeRedis } from '@funnel/server-runtime/redis-connection';
import { watchRedis } from '@funnel/server-runtime/redis-watch';
import { replicaWaitOf } from '@funnel/server-runtime/replica-wait';
import { queueTelemetry } from '@funnel/server-runtime/tracing';
import type { Env } from './env.js';
import { buildBuyerWalks } from './buyer-walks.js';
import { createBuyerTestProcessor } from './buyers/buyer-test-lead.js';
import { startErasureCompaction } from './erasure-compaction.js';
import { createOnFinalOutcome } from './final-outcome/on-final-outcome.js';
import { createAffiliatePostbackProcessor } from './final-outcome/affiliate-postback-processor.js';
import { createBuyerOptOutProcessor } from './final-outcome/buyer-opt-out-processor.js';
import { createWebhookDeliveryProcessor } from './final-outcome/webhook-delivery-processor.js';
import { createFollowUpWorkers } from './follow-ups/follow-up-workers.js';
import { WorkerMetrics, startHealthServer } from './metrics.js';
import { outboundClients } from './outbound-clients.js';
import { createReconciler } from './reconciler/reconciler.js';
import { startReconcilerWorker } from './scheduled-pass.js';
import { screeningOf } from './screening-checks.js';
import { createSubmitLeadProcessor, settleFailedSubmission } from './submission/submit-lead-processor.js';
import { startSystemOfRecord } from './system-of-record/system-of-record.js';

/** The consumers and scheduled passes a worker process runs; a deployed worker runs them all. */
export const WORKER_PARTS = [
  'submission',
  'partner-webhooks',
  'affiliate-postbacks',
  'follow-ups',
  'reconciler',
  'erasure-compaction',
] as const;
export type WorkerPart = (typeof WORKER_PARTS)[number];

export interface BuildWorkerOptions {
  logger: Logger;
  /** Which consumers and passes run (all by default); what a final outcome queues is wired either way. */
  parts?: readonly WorkerPart[];
  /** Serve `/healthz`, `/readyz` and `/metrics` on `WORKER_METRICS_PORT` (default true). */
  health?: boolean;
  /** Overrides of the catalog's options for the jobs the worker adds (tests shorten the backoff). */
  jobOptions?: EnqueueOptions;
  /** More to do once a lead's outcome is final, after the worker's own follow-ups. */
  alsoOnFinalOutcome?: (leadId: string) => Promise<void>;
}

export interface BuiltWorker {
  store: LeadStore;
  /** The process's metrics, as served on /metrics (tests read them here). */
  metrics: WorkerMetrics;
  /** Active jobs finish first (BullMQ waits for them), then the connections close. */
  close(): Promise<void>;
}

// Partner webhooks and postbacks: few, small and mostly waiting on the partner, so a modest concurrency is
// plenty. The follow-ups are short third-party calls as well.
const WEBHOOK_CONCURRENCY = 20;
const FOLLOW_UP_CONCURRENCY = 20;
const BUYER_TEST_CONCURRENCY = 4;
const HOUR_MS = 3600 * 1000;
/** How long a lead lives in Redis (the BFF's LEAD_TTL_DAYS default): what the reconciler can still repair from. */
const LEAD_TTL_MS = 30 * 24 * HOUR_MS;
/** How long after its decision a lead's evidence is left to the events drain before the reconciler writes it. */
const EVIDENCE_DRAIN_GRACE_MS = 2 * 60_000;
/** Decided leads whose evidence one reconciler pass completes at most; the next pass takes the rest. */
const EVIDENCE_REPAIRS_PER_PASS = 200;

/**
 * The worker process: one Redis connection, each queue opened once, every consumer of the job catalog and the
 * scheduled passes, the system of record when configured, and the health and metrics listener.
 */
export async function buildWorker(env: Env, options: BuildWorkerOptions): Promise<BuiltWorker> {
  const { logger } = options;
  const runs = (part: WorkerPart) => !options.parts || options.parts.includes(part);
  // BullMQ needs `maxRetriesPerRequest: null` on worker connections: it blocks on Redis and must wait out restarts.
  const connection = createRedis(env, 'blocking');
  // With tracing on, the jobs the worker adds and runs are spans of the trace that added them (docs/tracing.md).
  const telemetry = queueTelemetry(env.OTEL_EXPORTER_OTLP_ENDPOINT !== undefined);
  const queues = new JobQueues(connection, env.REDIS_KEY_PREFIX, undefined, telemetry);
  const metrics = new WorkerMetrics(
    queues.of([...Object.values(JOBS), { queue: ERASURE_COMPACTION_QUEUE }]),
    env.APP_VERSION,
    logger,
  );
  // One warning when Redis goes away and one when it is back, not a line per reconnection attempt.
  const redisWatch = watchRedis(connection, logger, 'worker', (up) => metrics.redisUp.set(up ? 1 : 0));
  const consumer = { connection, keyPrefix: env.REDIS_KEY_PREFIX, redisWatch, logger, telemetry };

  const cipher = new FieldCipher(env.FIELD_ENCRYPTION_KEYS);
  const store = new LeadStore(connection, cipher, {
    keyPrefix: env.REDIS_KEY_PREFIX,
    // The worker never creates leads; the TTL only matters to the BFF's writes.
    ttlMs: LEAD_TTL_MS,
    replicaWait: replicaWaitOf(env),
  });
  const suppression = new SuppressionList(connection, {
    keyPrefix: env.REDIS_KEY_PREFIX,
    sealer: cipher,
    hashSecret: env.SUPPRESSION_HASH_SECRET,
  });
  const { lender, webhookSender, outbound, trustedForm } = outboundClients(env, metrics);

  // The system of record: migrations at start (retried until PostgreSQL answers, without holding up the leads),
  // then the drain of lead events; final outcomes and buyer attempts are recorded as events like everything else.
  const eventOutbox = new EventOutbox(connection, { keyPrefix: env.REDIS_KEY_PREFIX });
  const systemOfRecord = env.DATABASE_URL
    ? startSystemOfRecord({
        databaseUrl: env.DATABASE_URL,
        databasePassword: env.PGPASSWORD,
        redis: env,
        streamKey: eventOutbox.key,
        consents: {
          sealer: cipher,
          retentionDays: env.CONSENT_RETENTION_DAYS,
          consentKey: (leadId) => store.consents.key(leadId),
        },
        privacy: { streamKey: suppression.streamKey, hashSecret: env.SUPPRESSION_HASH_SECRET },
        logger,
        onDrained: (n) => metrics.eventsDrained.inc(n),
      })
    : undefined;

  // With a buyers file, each lead walks the buyers (ADR 0012) or is auctioned (ADR 0020); without one, the
  // lender network above is the only buyer.
  const walks = await buildBuyerWalks(env, {
    connection,
    metrics,
    logger,
    sealer: cipher,
    recordAttempt: systemOfRecord ? (event) => eventOutbox.append(event) : undefined,
    systemOfRecordReady: systemOfRecord?.ready,
  });
  const { waterfall, concurrency, registry } = walks;

  const onFinalOutcome = createOnFinalOutcome({
    store,
    queues,
    postbacks: env.AFFILIATE_POSTBACKS,
    events: systemOfRecord ? eventOutbox : undefined,
    purgeGraceMs: env.SENSITIVE_PURGE_GRACE_HOURS * HOUR_MS,
    retainCertificates: trustedForm !== undefined,
    jobOptions: options.jobOptions,
    // A lead ended by the reconciler or a failed job may leave an attempt in flight: its cap places go back.
    before: waterfall ? (leadId) => waterfall.cursors.close(leadId) : undefined,
    after: options.alsoOnFinalOutcome,
  });

  const screening = env.SCREENING
    ? screeningOf(env, {
        redis: connection,
        doNotCall: systemOfRecord?.doNotCall,
        record: systemOfRecord
          ? (leadId, verdict) =>
              eventOutbox.append({
                // One event per lead however often it is screened: the drain writes an event id once.
                eventId: `screened-${leadId}`,
                leadId,
                at: new Date().toISOString(),
                type: 'screened',
                ...verdict,
              })
          : undefined,
      })
    : undefined;

  const submitLead = {
    store,
    lender,
    policy: { partnerOfferHosts: env.PARTNER_OFFER_HOSTS },
    pollIntervalMs: env.POLL_INTERVAL_MS,
    noLenderFallbackUrl: env.NO_LENDER_FALLBACK_URL,
    now: Date.now,
    logger,
    observe: {
      decided: (outcome: string, seconds: number) => {
        metrics.decided.inc({ outcome });
        metrics.submitToDecision.observe(seconds);
      },
      pollLateness: (seconds: number) => metrics.pollLateness.observe(seconds),
      decisionToOutcome: (buyer: string, seconds: number) =>
        metrics.buyerDecisionToOutcome.observe({ buyer }, seconds),
    },
    postClaimMs: env.LENDER_CONNECT_TIMEOUT_MS + env.LENDER_HEADERS_TIMEOUT_MS + 1000,
    postBudgetMs: env.LENDER_CONNECT_TIMEOUT_MS + env.LENDER_HEADERS_TIMEOUT_MS,
    waterfall,
    onFinalOutcome,
    screening,
  };

  const workers = [
    ...(runs('submission')
      ? [
          // Whatever happens to a job, its lead ends with a final outcome.
          startQueueWorker(JOBS.submitLead, createSubmitLeadProcessor(submitLead), {
            ...consumer,
            concurrency,
            stalledIntervalMs: env.STALLED_INTERVAL_MS,
            lockDurationMs: env.LOCK_DURATION_MS,
            maxStalledCount: 3,
            onFinalFailure: settleFailedSubmission(submitLead),
          }),
        ]
      : []),
    // A manager's test lead to one buyer (ADR 0022): a few at a time, each one post.
    ...(runs('submission') && registry
      ? [
          startQueueWorker(JOBS.buyerTestLead, createBuyerTestProcessor(registry), {
            ...consumer,
            concurrency: BUYER_TEST_CONCURRENCY,
          }),
        ]
      : []),
    // A delivery that fails for good is logged: the partner can still read GET /api/v1/partner/leads/:id.
    ...(runs('partner-webhooks')
      ? [
          startQueueWorker(
            JOBS.partnerWebhook,
            createWebhookDeliveryProcessor({
              store,
              secrets: env.PARTNER_WEBHOOK_SECRETS,
              sender: webhookSender,
              events: systemOfRecord ? eventOutbox : undefined,
              now: Date.now,
              logger,
            }),
            { ...consumer, concurrency: WEBHOOK_CONCURRENCY },
          ),
        ]
      : []),
    // Opt-outs told to the buyers that received the lead (issue 41): with a buyers file and a system of record,
    // which knows who received it.
    ...(runs('partner-webhooks') && registry && systemOfRecord
      ? [
          startQueueWorker(
            JOBS.buyerOptOut,
            createBuyerOptOutProcessor({
              store,
              recipientsOf: (leadId) => systemOfRecord.optOutRecipients(leadId),
              buyer: (id) => registry.current.file.buyers.find((buyer) => buyer.id === id),
              secrets: env.BUYER_WEBHOOK_SECRETS,
              sender: webhookSender,
              events: eventOutbox,
              now: Date.now,
              logger,
            }),
            { ...consumer, concurrency: WEBHOOK_CONCURRENCY },
          ),
        ]
      : []),
    // Affiliate conversion postbacks: a GET per converted lead, on the webhooks' terms (no redirects, public https).
    ...(runs('affiliate-postbacks')
      ? [
          startQueueWorker(
            JOBS.affiliatePostback,
            createAffiliatePostbackProcessor({
              store,
              postbacks: env.AFFILIATE_POSTBACKS,
              events: systemOfRecord ? eventOutbox : undefined,
              returns: systemOfRecord
                ? { stateOf: (leadId) => systemOfRecord.returnState(leadId) }
                : undefined,
              sender: webhookSender,
              logTtlMs: env.POSTBACK_LOG_DAYS * 24 * HOUR_MS,
              now: Date.now,
              logger,
            }),
            { ...consumer, concurrency: WEBHOOK_CONCURRENCY },
          ),
        ]
      : []),
    // Mailing list, cross-sell, TrustedForm retain and the purge, each checked against the suppression list
    // where it shares a contact.
    ...(runs('follow-ups')
      ? createFollowUpWorkers(
          {
            store,
            suppression,
            http: outbound,
            brevo: env.BREVO_API_KEY
              ? { baseUrl: env.BREVO_API_URL, apiKey: env.BREVO_API_KEY, listIds: env.BREVO_LIST_IDS }
              : undefined,
            forward: env.CROSS_SELL_FORWARD_URL
              ? { url: env.CROSS_SELL_FORWARD_URL, token: env.CROSS_SELL_FORWARD_TOKEN }
              : undefined,
            trustedForm,
            logger,
          },
          { connection, keyPrefix: env.REDIS_KEY_PREFIX, redisWatch, concurrency: FOLLOW_UP_CONCURRENCY },
        )
      : []),
  ];

  const passes = [
    ...(runs('reconciler')
      ? [
          await startReconcilerWorker(
            createReconciler({
              store,
              redis: connection,
              keyPrefix: env.REDIS_KEY_PREFIX,
              submissionQueue: queues.queue(JOBS.submitLead.queue),
              outboxAgeMs: 5000,
              deadlineGraceMs: env.RECONCILE_DEADLINE_GRACE_MS,
              noLenderFallbackUrl: env.NO_LENDER_FALLBACK_URL,
              now: Date.now,
              logger,
              onFinalOutcome,
              onRepair: (kind) => metrics.repairs.inc({ kind }),
              ...(systemOfRecord
                ? {
                    evidence: {
                      // A lead decided longer ago than a lead lives has nothing left to repair from; one
                      // decided in the last minutes may have its evidence still in the events stream, which
                      // the drain writes behind under load: repairing it would race the normal path.
                      missing: () =>
                        systemOfRecord.missingEvidence({
                          since: new Date(Date.now() - LEAD_TTL_MS),
                          decidedBefore: new Date(Date.now() - EVIDENCE_DRAIN_GRACE_MS),
                          limit: EVIDENCE_REPAIRS_PER_PASS,
                        }),
                      policy: { retentionMs: env.CONSENT_RETENTION_DAYS * 24 * HOUR_MS, withEvents: true },
                    },
                  }
                : {}),
            }),
            {
              connection,
              queues,
              keyPrefix: env.REDIS_KEY_PREFIX,
              everyMs: env.RECONCILE_INTERVAL_MS,
              logger,
            },
          ),
        ]
      : []),
    ...(runs('erasure-compaction')
      ? [await startErasureCompaction(env, { connection, queues, metrics, logger })]
      : []),
  ];

  if (systemOfRecord) {
    metrics.watchSystemOfRecord(
      () => connection.xlen(eventOutbox.key),
      () => systemOfRecord.reachable(),
    );
  }
  metrics.redisUp.set(redisWatch.up || connection.status === 'ready' ? 1 : 0);
  // A taken port costs the operator's view, not the leads: the worker runs on and says so.
  const health =
    options.health === false
      ? undefined
      : await startHealthServer(
          env.WORKER_METRICS_PORT,
          metrics,
          () => redisWatch.up || connection.status === 'ready',
        ).catch((err: Error) => {
          logger.warn(
            { err: err.message, port: env.WORKER_METRICS_PORT },
            'health and metrics listener not started',
          );
          return undefined;
        });
  logger.info(
    {
      healthPort: health?.port,
      // Host, TLS, whether authenticated: never the password.
      redis: describeRedis(env),
      lenderNetwork: env.BUYERS ? undefined : new URL(env.LENDER_NETWORK_URL).origin,
      buyers: env.BUYERS?.buyers.map((buyer) => buyer.id),
      buyersMode: env.BUYERS?.mode,
      concurrency,
    },
    'worker started',
  );

  return {
    store,
    metrics,
    async close() {
      await Promise.all([
        ...workers.map((worker) => worker.close()),
        ...passes.map((pass) => pass.worker.close()),
        systemOfRecord?.stop(),
      ]);
      await Promise.all([
        lender.close(),
        walks.close(),
        webhookSender.close(),
        outbound.close(),
        screening?.close(),
        queues.close(),
        new Promise((resolve) => (health ? health.server.close(resolve) : resolve(undefined))),
      ]);
      await connection.quit();
    },
  };
}
