import { Redis } from 'ioredis';
import { pino } from 'pino';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { loadEnv } from './env.js';
import { LenderClient } from './lender-client.js';
import { createSubmissionWorker } from './submission-worker.js';

const env = loadEnv();
const logger = pino({ level: env.LOG_LEVEL });

// BullMQ needs `maxRetriesPerRequest: null` on worker connections: it blocks on Redis and must wait out restarts.
const connection = new Redis(env.REDIS_URL, { maxRetriesPerRequest: null });
connection.on('error', (err) => logger.warn({ err: err.message }, 'redis connection error'));

const store = new LeadStore(connection, new FieldCipher(env.FIELD_ENCRYPTION_KEYS), {
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
});

const worker = createSubmissionWorker(
  {
    store,
    lender,
    policy: { partnerOfferHosts: env.PARTNER_OFFER_HOSTS },
    pollIntervalMs: env.POLL_INTERVAL_MS,
    noLenderFallbackUrl: env.NO_LENDER_FALLBACK_URL,
    now: Date.now,
    logger,
  },
  {
    connection,
    keyPrefix: env.REDIS_KEY_PREFIX,
    concurrency: env.WORKER_CONCURRENCY,
    stalledIntervalMs: env.STALLED_INTERVAL_MS,
    lockDurationMs: env.LOCK_DURATION_MS,
  },
);
logger.info(
  { lenderNetwork: new URL(env.LENDER_NETWORK_URL).origin, concurrency: env.WORKER_CONCURRENCY },
  'worker started',
);

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down: finishing active jobs');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    worker
      .close()
      .then(() => lender.close())
      .then(() => connection.quit())
      .then(
        () => process.exit(0),
        (err: unknown) => {
          logger.error({ err }, 'shutdown failed');
          process.exit(1);
        },
      );
  });
}
