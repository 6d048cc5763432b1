import { prettyLogDestination } from '@funnel/server-runtime/log-destination';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { closeOnSignals } from '@funnel/server-runtime/shutdown';
import { watchRedis } from '@funnel/server-runtime/redis-watch';
import { pino } from 'pino';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { SuppressionList } from '@funnel/lead-store/suppression-list';
import { loadEnv } from './env.js';
import { createAffiliatePostbackNotifier, createAffiliatePostbackWorker } from './affiliate-postbacks.js';
import { createFinalOutcomeFollowUps } from './final-outcome-follow-ups.js';
import { createOutcomeRecorder } from './outcome-events.js';
import { startSystemOfRecord } from './system-of-record.js';
import { EventOutbox } from '@funnel/lead-store/event-outbox';
import { createFollowUpWorkers } from './follow-up-workers.js';
import { OutboundHttp } from './outbound-http.js';
import { LenderClient } from './lender-client.js';
import { createPartnerWebhookNotifier } from './partner-webhook-notifier.js';
import { WorkerMetrics, startHealthServer } from './metrics.js';
import { createReconciler } from './reconciler.js';
import { startReconcilerWorker, startScheduledPass } from './reconciler-worker.js';
import { DiskErasure, ERASURE_COMPACTION_QUEUE } from '@funnel/lead-store/disk-erasure';
import { createSubmissionWorker } from './submission-worker.js';
import { createWebhookDeliveryWorker } from './webhook-delivery-worker.js';
import { WebhookSender } from './webhook-sender.js';
import { createBuyerAdapter } from './buyer-adapter.js';
import { WaterfallCursors } from './waterfall-cursor.js';
import { attemptEvent, type AttemptRecord } from './waterfall.js';

const env = loadEnv();
// Pretty lines for a person at a terminal in development; JSON everywhere else.
const pretty = prettyLogDestination({ nodeEnv: env.NODE_ENV, isTTY: process.stdout.isTTY === true });
const logger = pretty ? pino({ level: env.LOG_LEVEL }, pretty) : pino({ level: env.LOG_LEVEL });

// BullMQ needs `maxRetriesPerRequest: null` on worker connections: it blocks on Redis and must wait out restarts.
const connection = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
// One warning when Redis goes away and one when it is back, not a line per reconnection attempt.
const redisWatch = watchRedis(connection, logger, 'worker', (up) => metrics?.redisUp.set(up ? 1 : 0));
// eslint-disable-next-line prefer-const -- assigned once the queues exist
let metrics: WorkerMetrics | undefined;

const cipher = new FieldCipher(env.FIELD_ENCRYPTION_KEYS);
const store = new LeadStore(connection, cipher, {
  keyPrefix: env.REDIS_KEY_PREFIX,
  // The worker never creates leads; the TTL only matters to the BFF's writes.
  ttlMs: 30 * 24 * 3600 * 1000,
});
const lender = new LenderClient({
  baseUrl: env.LENDER_NETWORK_URL,
  ...(env.LENDER_NETWORK_API_KEY ? { apiKey: env.LENDER_NETWORK_API_KEY } : {}),
  connections: env.LENDER_CONNECTIONS,
  connectTimeoutMs: env.LENDER_CONNECT_TIMEOUT_MS,
  headersTimeoutMs: env.LENDER_HEADERS_TIMEOUT_MS,
  bodyTimeoutMs: env.LENDER_BODY_TIMEOUT_MS,
  observe: (endpoint, result, seconds) => {
    metrics?.upstreamCalls.inc({ endpoint, result });
    metrics?.upstreamSeconds.observe({ endpoint }, seconds);
  },
  pingTimeoutMs: Math.min(env.LENDER_PING_TIMEOUT_MS, env.POLL_INTERVAL_MS),
});

// Partner webhooks: few, small and mostly waiting on the partner, so a modest concurrency is plenty.
const WEBHOOK_CONCURRENCY = 20;
const webhookQueue = new Queue(JOBS.partnerWebhook.queue, {
  connection,
  prefix: queuePrefix(env.REDIS_KEY_PREFIX),
});
const webhookSender = new WebhookSender({
  allowPrivateNetworks: env.PARTNER_WEBHOOK_INSECURE,
  connectTimeoutMs: 5000,
  responseTimeoutMs: 10_000,
});
const webhookWorker = createWebhookDeliveryWorker(
  { store, secrets: env.PARTNER_WEBHOOK_SECRETS, sender: webhookSender, now: Date.now, logger },
  { connection, keyPrefix: env.REDIS_KEY_PREFIX, concurrency: WEBHOOK_CONCURRENCY, redisWatch },
);

// A lead's follow-ups (mailing list, cross-sell, TrustedForm retain, sensitive-data purge): short third-party
// calls, each checked against the suppression list where it shares a contact.
const FOLLOW_UP_CONCURRENCY = 20;
const HOUR_MS = 3600 * 1000;
const outbound = new OutboundHttp({ connectTimeoutMs: 5000, responseTimeoutMs: 10_000 });
const trustedForm = env.TRUSTEDFORM_API_KEY
  ? { apiKey: env.TRUSTEDFORM_API_KEY, certOrigin: env.TRUSTEDFORM_CERT_ORIGIN }
  : undefined;
const suppression = new SuppressionList(connection, {
  keyPrefix: env.REDIS_KEY_PREFIX,
  sealer: cipher,
  hashSecret: env.SUPPRESSION_HASH_SECRET,
});
const followUpWorkers = createFollowUpWorkers(
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
  { connection, keyPrefix: env.REDIS_KEY_PREFIX, concurrency: FOLLOW_UP_CONCURRENCY, redisWatch },
);
const purgeQueue = new Queue(JOBS.sensitiveDataPurge.queue, {
  connection,
  prefix: queuePrefix(env.REDIS_KEY_PREFIX),
});
const retainQueue = new Queue(JOBS.trustedFormRetain.queue, {
  connection,
  prefix: queuePrefix(env.REDIS_KEY_PREFIX),
});
const notifyPartner = createPartnerWebhookNotifier({ store, queue: webhookQueue });

// Affiliate conversion postbacks: a GET per converted lead, on the webhooks' terms (no redirects, public https).
const postbackQueue = new Queue(JOBS.affiliatePostback.queue, {
  connection,
  prefix: queuePrefix(env.REDIS_KEY_PREFIX),
});
const notifyAffiliate = createAffiliatePostbackNotifier({
  store,
  queue: postbackQueue,
  postbacks: env.AFFILIATE_POSTBACKS,
});
const postbackWorker = createAffiliatePostbackWorker(
  {
    store,
    postbacks: env.AFFILIATE_POSTBACKS,
    sender: webhookSender,
    logTtlMs: env.POSTBACK_LOG_DAYS * 24 * HOUR_MS,
    now: Date.now,
    logger,
  },
  { connection, keyPrefix: env.REDIS_KEY_PREFIX, concurrency: WEBHOOK_CONCURRENCY, redisWatch },
);
const scheduleFinalOutcomeFollowUps = createFinalOutcomeFollowUps({
  store,
  purgeQueue,
  retainQueue,
  purgeGraceMs: env.SENSITIVE_PURGE_GRACE_HOURS * HOUR_MS,
  retainCertificates: trustedForm !== undefined,
});

// The system of record: migrations at start (retried until PostgreSQL answers, without holding up the leads),
// then the drain of lead events; final outcomes are recorded as events like everything else.
const eventOutbox = new EventOutbox(connection, { keyPrefix: env.REDIS_KEY_PREFIX });
const recordOutcome = env.DATABASE_URL ? createOutcomeRecorder({ store, events: eventOutbox }) : undefined;
const systemOfRecord = env.DATABASE_URL
  ? startSystemOfRecord({
      databaseUrl: env.DATABASE_URL,
      redisUrl: env.REDIS_URL,
      streamKey: eventOutbox.key,
      consents: {
        sealer: cipher,
        retentionDays: env.CONSENT_RETENTION_DAYS,
        consentKey: (leadId) => store.consentKey(leadId),
      },
      privacy: { streamKey: suppression.streamKey, hashSecret: env.SUPPRESSION_HASH_SECRET },
      logger,
      onDrained: (n) => metrics?.eventsDrained.inc(n),
    })
  : undefined;

const submissionQueue = new Queue(JOBS.submitLead.queue, {
  connection,
  prefix: queuePrefix(env.REDIS_KEY_PREFIX),
});

// With a buyers file, each lead walks the buyers (ADR 0012); without one, the lender network above is the only
// buyer, as before.
const buyerAdapters = new Map(
  (env.BUYERS?.buyers ?? []).map((buyer) => [
    buyer.id,
    createBuyerAdapter(buyer, (id, endpoint, result, seconds) => {
      metrics?.upstreamCalls.inc({ endpoint: `${id}:${endpoint}`, result });
      metrics?.upstreamSeconds.observe({ endpoint: `${id}:${endpoint}` }, seconds);
    }),
  ]),
);
const waterfall = env.BUYERS
  ? {
      buyers: env.BUYERS,
      adapters: buyerAdapters,
      cursors: new WaterfallCursors(connection, env.REDIS_KEY_PREFIX),
      policy: { partnerOfferHosts: env.PARTNER_OFFER_HOSTS },
      now: Date.now,
      onAttempt: async (attempt: AttemptRecord) => {
        metrics?.buyerAttempts.inc({ buyer: attempt.buyer, result: attempt.result });
        if (attempt.result !== 'capped')
          metrics?.buyerAttemptSeconds.observe({ buyer: attempt.buyer }, attempt.latencyMs / 1000);
        if (attempt.price !== undefined) metrics?.buyerRevenue.inc({ buyer: attempt.buyer }, attempt.price);
        if (systemOfRecord) await eventOutbox.append(attemptEvent(attempt));
      },
    }
  : undefined;

const onFinalOutcome = async (leadId: string) => {
  // A lead ended by the reconciler or a failed job may leave an attempt in flight: its cap places go back.
  await waterfall?.cursors.close(leadId);
  await notifyPartner(leadId);
  await notifyAffiliate(leadId);
  await recordOutcome?.(leadId);
  await scheduleFinalOutcomeFollowUps(leadId);
};
const worker = createSubmissionWorker(
  {
    store,
    lender,
    policy: { partnerOfferHosts: env.PARTNER_OFFER_HOSTS },
    pollIntervalMs: env.POLL_INTERVAL_MS,
    noLenderFallbackUrl: env.NO_LENDER_FALLBACK_URL,
    now: Date.now,
    logger,
    observe: {
      decided: (outcome, seconds) => {
        metrics?.decided.inc({ outcome });
        metrics?.submitToDecision.observe(seconds);
      },
      pollLateness: (seconds) => metrics?.pollLateness.observe(seconds),
    },
    postClaimMs: env.LENDER_CONNECT_TIMEOUT_MS + env.LENDER_HEADERS_TIMEOUT_MS + 1000,
    waterfall,
    onFinalOutcome,
  },
  {
    redisWatch,
    connection,
    keyPrefix: env.REDIS_KEY_PREFIX,
    concurrency: env.WORKER_CONCURRENCY,
    stalledIntervalMs: env.STALLED_INTERVAL_MS,
    lockDurationMs: env.LOCK_DURATION_MS,
  },
);
const reconciler = await startReconcilerWorker(
  createReconciler({
    store,
    redis: connection,
    keyPrefix: env.REDIS_KEY_PREFIX,
    submissionQueue,
    outboxAgeMs: 5000,
    deadlineGraceMs: env.RECONCILE_DEADLINE_GRACE_MS,
    noLenderFallbackUrl: env.NO_LENDER_FALLBACK_URL,
    now: Date.now,
    logger,
    onFinalOutcome,
    onRepair: (kind) => metrics?.repairs.inc({ kind }),
  }),
  { connection, keyPrefix: env.REDIS_KEY_PREFIX, everyMs: env.RECONCILE_INTERVAL_MS, logger },
);
const diskErasure = new DiskErasure(connection, { keyPrefix: env.REDIS_KEY_PREFIX });
const erasureCompactor = await startScheduledPass(
  ERASURE_COMPACTION_QUEUE,
  async () => {
    const result = await diskErasure.compact();
    if (result === 'idle') return result;
    metrics?.erasureCompactions.inc({ result });
    const level =
      result === 'rewritten' || result === 'no-persistence' || result === 'busy' ? 'info' : 'warn';
    logger[level]({ result }, 'erasure compaction');
    return result;
  },
  {
    connection,
    keyPrefix: env.REDIS_KEY_PREFIX,
    everyMs: env.ERASURE_REWRITE_INTERVAL_MS,
    logger,
    // A rewrite of a large AOF may take minutes; the pass waits for it (and gives up after 10).
    lockTtlMs: 11 * 60_000,
  },
);
const followUpQueues = [
  JOBS.mailingListSync,
  JOBS.crossSellForward,
  JOBS.trustedFormRetain,
  JOBS.sensitiveDataPurge,
].map((job) => new Queue(job.queue, { connection, prefix: queuePrefix(env.REDIS_KEY_PREFIX) }));
metrics = new WorkerMetrics(
  [submissionQueue, webhookQueue, postbackQueue, reconciler.queue, erasureCompactor.queue, ...followUpQueues],
  systemOfRecord ? () => connection.xlen(eventOutbox.key) : undefined,
  systemOfRecord ? () => systemOfRecord.reachable() : undefined,
);
metrics.redisUp.set(redisWatch.up || connection.status === 'ready' ? 1 : 0);
// A taken port costs the operator's view, not the leads: the worker runs on and says so.
const health = await startHealthServer(
  env.WORKER_METRICS_PORT,
  metrics,
  () => redisWatch.up || connection.status === 'ready',
).catch((err: Error) => {
  logger.warn({ err: err.message, port: env.WORKER_METRICS_PORT }, 'health and metrics listener not started');
  return undefined;
});
logger.info(
  {
    healthPort: health?.port,
    lenderNetwork: env.BUYERS ? undefined : new URL(env.LENDER_NETWORK_URL).origin,
    buyers: env.BUYERS?.buyers.map((buyer) => buyer.id),
    concurrency: env.WORKER_CONCURRENCY,
  },
  'worker started',
);

// Active jobs finish first (BullMQ waits for them), then the connections close.
closeOnSignals(
  async () => {
    await Promise.all([
      worker.close(),
      reconciler.worker.close(),
      erasureCompactor.worker.close(),
      webhookWorker.close(),
      postbackWorker.close(),
      systemOfRecord?.stop(),
      ...followUpWorkers.map((w) => w.close()),
    ]);
    await Promise.all([
      lender.close(),
      ...[...buyerAdapters.values()].map((adapter) => adapter.close()),
      webhookSender.close(),
      webhookQueue.close(),
      postbackQueue.close(),
      outbound.close(),
      purgeQueue.close(),
      retainQueue.close(),
      submissionQueue.close(),
      ...followUpQueues.map((queue) => queue.close()),
      new Promise((resolve) => (health ? health.server.close(resolve) : resolve(undefined))),
      reconciler.queue.close(),
      erasureCompactor.queue.close(),
    ]);
    await connection.quit();
  },
  logger,
  15_000,
);
