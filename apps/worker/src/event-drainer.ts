import { hostname } from 'node:os';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import type { Logger } from 'pino';
import { LeadEventSchema, type LeadEvent } from '@funnel/contracts/lead-events';
import type { Database } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';

const GROUP = 'drain';
/** A pending entry idle this long belongs to a drainer that died: another takes it over. */
const ABANDONED_MS = 30_000;

export interface EventDrainerOptions {
  /** A connection of its own: the drainer blocks on it. */
  redis: Redis;
  db: Kysely<Database>;
  /** The stream (`EventOutbox.key`). */
  streamKey: string;
  logger: Logger;
  batchSize?: number;
  /** How long to wait before trying PostgreSQL again after a failure. */
  retryMs?: number;
  /** Told of every batch written: how many events were new. */
  onDrained?: (written: number) => void;
}

type StreamEntries = Array<[id: string, fields: string[]]>;

/**
 * Drains the lead-event stream into PostgreSQL, at least once: a batch is acknowledged and removed from Redis only
 * after its transaction committed, and a batch written twice changes nothing (event ids). While PostgreSQL is
 * down the events wait in Redis (lag, never loss); entries a crashed drainer held are taken over after 30 s.
 */
export function startEventDrainer(options: EventDrainerOptions): { stop(): Promise<void> } {
  const { redis, streamKey, logger } = options;
  const batchSize = options.batchSize ?? 500;
  const retryMs = options.retryMs ?? 1000;
  const consumer = `${hostname()}-${process.pid}`;
  let stopping = false;
  let failing = false;

  const parse = (entries: StreamEntries): LeadEvent[] =>
    entries.flatMap(([id, fields]) => {
      const parsed = LeadEventSchema.safeParse(JSON.parse(fields[1] ?? 'null'));
      if (parsed.success) return [parsed.data];
      logger.error({ entryId: id }, 'lead event not understood; dropped');
      return [];
    });

  const write = async (entries: StreamEntries): Promise<void> => {
    if (entries.length === 0) return;
    const written = await recordEvents(options.db, parse(entries));
    const ids = entries.map(([id]) => id);
    await redis
      .multi()
      .xack(streamKey, GROUP, ...ids)
      .xdel(streamKey, ...ids)
      .exec();
    options.onDrained?.(written);
    if (failing) logger.warn('system of record reachable again; draining');
    failing = false;
  };

  const loop = async () => {
    await redis.xgroup('CREATE', streamKey, GROUP, '0', 'MKSTREAM').catch((error: Error) => {
      if (!error.message.includes('BUSYGROUP')) throw error;
    });
    while (!stopping) {
      try {
        // Our own unacknowledged entries first (a failed batch), then any a dead drainer left, then new ones.
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
          await write(pending);
          continue;
        }
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
          await write(claimed[1]);
          continue;
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
        await write(fresh?.[0]?.[1] ?? []);
      } catch (error) {
        if (stopping) break;
        if (!failing)
          logger.warn({ err: (error as Error).message }, 'lead events wait in Redis: cannot write them yet');
        failing = true;
        await new Promise((resolve) => setTimeout(resolve, retryMs));
      }
    }
  };
  const running = loop().catch((error: Error) => logger.error({ err: error }, 'event drainer stopped'));

  return {
    async stop() {
      stopping = true;
      redis.disconnect();
      await running;
    },
  };
}
