import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { LeadEventSchema, type LeadEvent } from '@funnel/contracts/lead-events';
import type { Database } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { archiveConsents, deleteConsents, type ContactSealer } from '@funnel/db/consent-archive';
import type { RetainedConsent } from '@funnel/contracts/consent';
import { openRetainedConsent } from '@funnel/lead-store/lead-store';

const GROUP = 'drain';
/** A pending entry idle this long belongs to a drainer that died: another takes it over. */
const ABANDONED_MS = 30_000;
/** How often to look for such entries. */
const CLAIM_EVERY_MS = 5_000;

export type StreamEntries = Array<[id: string, fields: string[]]>;

export interface StreamDrainerOptions {
  /** A connection of its own: the drainer blocks on it. */
  redis: Redis;
  streamKey: string;
  /** What the entries are, for the logs ('lead events'). */
  what: string;
  logger: Logger;
  batchSize?: number;
  /** How long to wait before trying PostgreSQL again after a failure. */
  retryMs?: number;
  /**
   * Batches written at once (each its own consumer, connection and transaction): while one waits on PostgreSQL
   * the next is read. Rows are written in key order, so concurrent batches cannot deadlock.
   */
  concurrency?: number;
  /** Writes a batch to PostgreSQL (on the batch's own Redis connection); throws to have it written again. */
  write: (redis: Redis, entries: StreamEntries) => Promise<void>;
}

export interface EventDrainerOptions extends Omit<StreamDrainerOptions, 'what' | 'write'> {
  db: Kysely<Database>;
  /**
   * The consent archive: when a lead's `submitted` event is drained, its retained consent (the lead store's Redis
   * copy) is archived in the same transaction, contact sealed, and the Redis copy is then removed.
   */
  consents?: { sealer: ContactSealer; retentionDays: number; consentKey: (leadId: string) => string };
  /** Told of every batch written: how many events were new. */
  onDrained?: (written: number) => void;
}

/**
 * Drains the lead-event stream into PostgreSQL, at least once: a batch written twice changes nothing (event ids).
 * While PostgreSQL is down the events wait in Redis (lag, never loss).
 */
export function startEventDrainer(options: EventDrainerOptions): { stop(): Promise<void> } {
  const { logger } = options;

  const parse = (entries: StreamEntries): LeadEvent[] =>
    entries.flatMap(([id, fields]) => {
      const parsed = LeadEventSchema.safeParse(JSON.parse(fields[1] ?? 'null'));
      if (parsed.success) return [parsed.data];
      logger.error({ entryId: id }, 'lead event not understood; dropped');
      return [];
    });

  /** The Redis copies of the consent of the leads submitted in `events`. */
  const retainedConsents = async (redis: Redis, events: LeadEvent[]): Promise<RetainedConsent[]> => {
    const leadIds = [...new Set(events.filter((e) => e.type === 'submitted').map((e) => e.leadId))];
    if (leadIds.length === 0 || !options.consents) return [];
    const { consentKey, sealer } = options.consents;
    const raws = await redis.mget(...leadIds.map(consentKey));
    return raws.flatMap((raw, i) => {
      if (!raw) return [];
      try {
        return [openRetainedConsent(sealer, leadIds[i]!, raw)];
      } catch (error) {
        logger.error({ leadId: leadIds[i], err: error }, 'retained consent not understood; not archived');
        return [];
      }
    });
  };

  /**
   * Once archived, the Redis copies go. A copy already gone was erased (a deletion request) or expired between
   * reading and archiving: its archived record goes too.
   */
  const dropRedisCopies = async (redis: Redis, consents: RetainedConsent[]): Promise<void> => {
    const pipeline = redis.pipeline();
    for (const consent of consents) pipeline.del(options.consents!.consentKey(consent.leadId));
    const results = (await pipeline.exec()) ?? [];
    const erased = consents.filter((_, i) => results[i]?.[1] === 0).map((c) => c.leadId);
    if (erased.length > 0) await deleteConsents(options.db, erased);
  };

  const write = async (redis: Redis, entries: StreamEntries): Promise<void> => {
    const events = parse(entries);
    const consents = options.consents ? await retainedConsents(redis, events) : [];
    const written = await recordEvents(
      options.db,
      events,
      consents.length > 0 && options.consents
        ? (trx) => archiveConsents(trx, consents, options.consents!)
        : undefined,
    );
    // After the commit, before the entries are acknowledged: a batch written again finds the copies gone.
    if (consents.length > 0) await dropRedisCopies(redis, consents);
    options.onDrained?.(written);
  };

  return startStreamDrainer({ ...options, what: 'lead events', write });
}

/**
 * Drains a Redis stream into PostgreSQL through a consumer group, at least once: a batch is acknowledged and
 * removed from Redis only after `write` succeeded, so `write` must be idempotent. While PostgreSQL is down the
 * entries wait in Redis (lag, never loss); entries a crashed drainer held are taken over after 30 s.
 */
export function startStreamDrainer(options: StreamDrainerOptions): { stop(): Promise<void> } {
  const { redis, streamKey, logger, what } = options;
  const batchSize = options.batchSize ?? 500;
  const retryMs = options.retryMs ?? 1000;
  const concurrency = options.concurrency ?? 3;
  const connections = [redis, ...Array.from({ length: concurrency - 1 }, () => redis.duplicate())];
  let stopping = false;
  let failing = false;

  const write = async (redis: Redis, entries: StreamEntries): Promise<void> => {
    if (entries.length === 0) return;
    await options.write(redis, entries);
    const ids = entries.map(([id]) => id);
    await redis
      .multi()
      .xack(streamKey, GROUP, ...ids)
      .xdel(streamKey, ...ids)
      .exec();
    if (failing) logger.warn(`system of record reachable again; draining ${what}`);
    failing = false;
  };

  const loop = async (redis: Redis, consumer: string) => {
    await redis.xgroup('CREATE', streamKey, GROUP, '0', 'MKSTREAM').catch((error: Error) => {
      if (!error.message.includes('BUSYGROUP')) throw error;
    });
    // Our own unacknowledged entries are read back at start and after a failed batch; entries a dead drainer
    // left are looked for every few seconds; otherwise only new entries are read (one round trip per batch).
    let ownPending = true;
    let nextClaimAt = 0;
    while (!stopping) {
      try {
        if (ownPending) {
          const own = (await redis.xreadgroup(
            'GROUP',
            GROUP,
            consumer,
            'COUNT',
            batchSize,
            'STREAMS',
            streamKey,
            '0',
          )) as Array<[string, StreamEntries]> | null;
          const pending = own?.[0]?.[1] ?? [];
          if (pending.length > 0) {
            await write(redis, pending);
            continue;
          }
          ownPending = false;
        }
        if (Date.now() >= nextClaimAt) {
          const claimed = (await redis.xautoclaim(
            streamKey,
            GROUP,
            consumer,
            ABANDONED_MS,
            '0-0',
            'COUNT',
            batchSize,
          )) as [string, StreamEntries];
          if (claimed[1].length > 0) {
            await write(redis, claimed[1]);
            continue;
          }
          nextClaimAt = Date.now() + CLAIM_EVERY_MS;
        }
        const fresh = (await redis.xreadgroup(
          'GROUP',
          GROUP,
          consumer,
          'COUNT',
          batchSize,
          'BLOCK',
          1000,
          'STREAMS',
          streamKey,
          '>',
        )) as Array<[string, StreamEntries]> | null;
        await write(redis, fresh?.[0]?.[1] ?? []);
      } catch (error) {
        if (stopping) break;
        if (!failing)
          logger.warn({ err: (error as Error).message }, `${what} wait in Redis: cannot write them yet`);
        failing = true;
        ownPending = true;
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }
  };
  const running = Promise.all(
    connections.map((connection, i) =>
      loop(connection, `${hostname()}-${process.pid}-${i}`).catch((error: Error) =>
        logger.error({ err: error }, `${what} drainer stopped`),
      ),
    ),
  );

  return {
    async stop() {
      stopping = true;
      for (const connection of connections) connection.disconnect();
      await running;
    },
  };
}
