import type { Redis } from 'ioredis';

/**
 * How the BFF tells the workers that the buyers document changed (ADR 0022): a message on a Redis channel with
 * the new version, which each worker reads at once; each worker also polls the version, so a message lost to a
 * reconnection costs a poll interval, not the change. At each check, each worker notes the version it runs, since
 * when, and that it is alive, in a hash (the console and the pause benchmark read it).
 */
export function buyerConfigChannel(keyPrefix: string): string {
  return `${keyPrefix}buyers:changed`;
}

/** Hash: worker id → its {@link BuyerWorkerNote} as JSON. */
export function buyerConfigAppliedKey(keyPrefix: string): string {
  return `${keyPrefix}buyers:applied`;
}

/** What a worker notes at each check of the buyers document: its heartbeat. */
export interface BuyerWorkerNote {
  /** The version it runs, and since when (ms since the epoch). */
  version: number;
  appliedAt: number;
  /** When it last checked, and how often it checks: a worker not seen for a few checks has stopped. */
  seenAt: number;
  everyMs: number;
}

/** A worker as the console lists it. */
export interface BuyerWorker extends BuyerWorkerNote {
  worker: string;
  /** Not seen for {@link MISSED_CHECKS_GONE} checks: stopped, or cut off from Redis; what it ran is history. */
  gone: boolean;
}

/**
 * Checks a worker may miss before it is listed as gone. One or two can be late on a busy worker (a slow read of
 * the system of record delays the next); five in a row, 10 s at the default 2 s, is not a hiccup.
 */
const MISSED_CHECKS_GONE = 5;

/** A gone worker is listed for a day, so a crash can be seen the morning after, then forgotten. */
const GONE_FORGOTTEN_MS = 86_400_000;

/** Notes `worker`'s heartbeat (ADR 0022). */
export async function noteBuyerWorker(
  redis: Redis,
  keyPrefix: string,
  worker: string,
  note: BuyerWorkerNote,
): Promise<void> {
  await redis.hset(buyerConfigAppliedKey(keyPrefix), worker, JSON.stringify(note));
}

/** Drops `worker`'s note: it stops on purpose, so it is not listed as gone. */
export async function forgetBuyerWorker(redis: Redis, keyPrefix: string, worker: string): Promise<void> {
  await redis.hdel(buyerConfigAppliedKey(keyPrefix), worker);
}

/** A note as written; one of a worker from before heartbeats (`<version>:<applied at>`) was last seen then. */
function noteOf(value: string): BuyerWorkerNote {
  if (value.startsWith('{')) return JSON.parse(value) as BuyerWorkerNote;
  const [version, at] = value.split(':').map(Number);
  return { version: version ?? 0, appliedAt: at ?? 0, seenAt: at ?? 0, everyMs: 2000 };
}

/**
 * The workers that noted a heartbeat, each marked gone once it missed {@link MISSED_CHECKS_GONE} checks; a worker
 * gone for a day is forgotten (its note deleted).
 */
export async function buyerWorkers(redis: Redis, keyPrefix: string, now: number): Promise<BuyerWorker[]> {
  const key = buyerConfigAppliedKey(keyPrefix);
  const workers = Object.entries(await redis.hgetall(key))
    .map(([worker, value]) => ({ worker, ...noteOf(value) }))
    .map((w) => ({ ...w, gone: now - w.seenAt > MISSED_CHECKS_GONE * w.everyMs }));
  const forgotten = workers.filter((w) => now - w.seenAt > GONE_FORGOTTEN_MS).map((w) => w.worker);
  if (forgotten.length > 0) await redis.hdel(key, ...forgotten);
  return workers
    .filter((w) => !forgotten.includes(w.worker))
    .sort((a, b) => Number(a.gone) - Number(b.gone) || a.worker.localeCompare(b.worker));
}

/** Tells every worker that `version` is the newest. */
export async function publishBuyerConfigChange(
  redis: Redis,
  keyPrefix: string,
  version: number,
): Promise<void> {
  await redis.publish(buyerConfigChannel(keyPrefix), String(version));
}
