import { sql } from 'kysely';
import type { Logger } from 'pino';
import { purgeExpiredConsents, type ContactSealer } from '@funnel/db/consent-archive';
import { migrate, openDatabase } from '@funnel/db/database';
import { doNotCallStatus, type DoNotCallStatus } from '@funnel/db/do-not-call';
import { leadsMissingEvidence } from '@funnel/db/evidence-gaps';
import { optOutRecipients } from '@funnel/db/opt-out-recipients';
import { returnStateOf } from '@funnel/db/return-reversals';
import { createRedis, type RedisConnectionEnv } from '@funnel/server-runtime/redis-connection';
import { startEventDrainer, startStreamDrainer } from './event-drainer.js';
import { privacyLogWriter } from './privacy-log-drain.js';

const MIGRATE_RETRY_MS = 2000;
const RETENTION_EVERY_MS = 3600_000;
const REACHABLE_TIMEOUT_MS = 2000;

export interface SystemOfRecordOptions {
  databaseUrl: string;
  /** `PGPASSWORD`, when the password is not in the URL. */
  databasePassword?: string | undefined;
  /** Where Redis is: each drainer opens its own connection there (it blocks on the stream). */
  redis: RedisConnectionEnv;
  /** The lead-event stream (`EventOutbox.key`). */
  streamKey: string;
  consents: { sealer: ContactSealer; retentionDays: number; consentKey: (leadId: string) => string };
  /** The privacy-request log: the suppression list's stream (`SuppressionList.streamKey`) and its hash secret. */
  privacy: { streamKey: string; hashSecret: string };
  logger: Logger;
  onDrained?: (written: number) => void;
}

/**
 * The worker's side of the system of record (ADR 0009): applies the migrations (retried until PostgreSQL answers,
 * without holding up the leads), then drains lead events and privacy requests, and runs the consent archive's
 * hourly retention pass.
 */
export function startSystemOfRecord(options: SystemOfRecordOptions): {
  /** Whether PostgreSQL answers a query within 2 s (the `funnel_postgres_up` gauge, read at each scrape). */
  reachable(): Promise<boolean>;
  /** Where the lead's return stands, for the affiliate's payout jobs (ADR 0021, "Reversing a return"). */
  returnState(leadId: string): ReturnType<typeof returnStateOf>;
  /** Settles once the migrations are applied (or the worker stops first). */
  ready: Promise<void>;
  /** Decided leads without their submission's evidence ({@link leadsMissingEvidence}), for the reconciler. */
  missingEvidence(options: Parameters<typeof leadsMissingEvidence>[1]): Promise<string[]>;
  /** Where the Do Not Call registry stands for a phone, once the migrations are applied (screening, ADR 0029). */
  doNotCall(phone: string): Promise<DoNotCallStatus>;
  /** The buyers that received a lead, for its opt-out ({@link optOutRecipients}). */
  optOutRecipients(leadId: string): ReturnType<typeof optOutRecipients>;
  stop(): Promise<void>;
} {
  const { logger } = options;
  const database = openDatabase({ url: options.databaseUrl, password: options.databasePassword });
  let stopping = false;
  const drainers: Array<{ stop(): Promise<void> }> = [];
  let retention: NodeJS.Timeout | undefined;

  const purge = () =>
    purgeExpiredConsents(database)
      .then((n) => n > 0 && logger.info({ deleted: n }, 'consent records past retention deleted'))
      .catch((error: Error) =>
        logger.warn({ err: error.message }, 'consent retention pass failed; next hour'),
      );

  const starting = (async () => {
    for (let attempt = 1; !stopping; attempt++) {
      try {
        logger.info({ applied: await migrate(database) }, 'system of record ready');
        break;
      } catch (error) {
        if (attempt === 1) {
          logger.warn({ err: (error as Error).message }, 'system of record not reachable yet; retrying');
        }
        await new Promise((resolve) => setTimeout(resolve, MIGRATE_RETRY_MS));
      }
    }
    if (stopping) return;
    // Idempotent on every worker: each deletes what is past its time.
    void purge();
    retention = setInterval(() => void purge(), RETENTION_EVERY_MS);
    retention.unref();
    drainers.push(
      startEventDrainer({
        redis: createRedis(options.redis, 'blocking'),
        db: database,
        streamKey: options.streamKey,
        logger,
        consents: options.consents,
        ...(options.onDrained ? { onDrained: options.onDrained } : {}),
      }),
      // A few requests a day: one batch at a time is plenty.
      startStreamDrainer({
        redis: createRedis(options.redis, 'blocking'),
        streamKey: options.privacy.streamKey,
        what: 'privacy requests',
        logger,
        concurrency: 1,
        batchSize: 100,
        write: privacyLogWriter({
          db: database,
          sealer: options.consents.sealer,
          hashSecret: options.privacy.hashSecret,
          logger,
        }),
      }),
    );
  })();

  return {
    ready: starting,
    async reachable() {
      const timeout = new Promise<false>((resolve) =>
        setTimeout(resolve, REACHABLE_TIMEOUT_MS, false).unref(),
      );
      const query = sql`select 1`.execute(database).then(
        () => true,
        () => false,
      );
      return Promise.race([query, timeout]);
    },
    returnState: (leadId) => returnStateOf(database, leadId),
    missingEvidence: (options) => leadsMissingEvidence(database, options),
    optOutRecipients: (leadId) => optOutRecipients(database, leadId),
    async doNotCall(phone) {
      await starting;
      return doNotCallStatus(database, phone);
    },
    async stop() {
      stopping = true;
      await starting;
      clearInterval(retention);
      await Promise.all(drainers.map((drainer) => drainer.stop()));
      await database.destroy();
    },
  };
}
