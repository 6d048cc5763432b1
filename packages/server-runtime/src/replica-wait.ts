import type { Redis } from 'ioredis';

/**
 * How many replicas must hold a write before it is acknowledged or acted on, and how long to wait for them
 * (`REDIS_WAIT_REPLICAS`, `REDIS_WAIT_TIMEOUT_MS`; docs/adr/0018). `replicas: 0` turns the wait off.
 */
export interface ReplicaWaitConfig {
  replicas: number;
  timeoutMs: number;
}

/** No wait: a single Redis, or an operator who accepts losing the last writes of a failover. */
export const NO_REPLICA_WAIT: ReplicaWaitConfig = { replicas: 0, timeoutMs: 0 };

/**
 * A write that the primary applied but fewer replicas than required confirmed in time: it may vanish in a
 * failover, so nothing may be acknowledged or done on the strength of it. Retryable: the API answers 503 with
 * Retry-After, a job is tried again; every write it guards is idempotent, so the retry is safe whichever way the
 * write went.
 */
export class WriteNotReplicatedError extends Error {
  override readonly name = 'WriteNotReplicatedError';
  readonly retryable = true;

  constructor(
    readonly asked: number,
    readonly confirmed: number,
  ) {
    super(`write confirmed by ${confirmed} of ${asked} required Redis replicas; not acknowledged, retry`);
  }
}

/**
 * True for a write refused for want of replicas: ours ({@link WriteNotReplicatedError}) or the server's
 * `min-replicas-to-write` refusal (`NOREPLICAS`), also when it aborted a `MULTI` (`EXECABORT`, with the refusal
 * among ioredis's `previousErrors`).
 */
export function isNotReplicated(error: unknown): boolean {
  if (error instanceof WriteNotReplicatedError) return true;
  if (!(error instanceof Error)) return false;
  if (error.message.startsWith('NOREPLICAS')) return true;
  const previous = (error as { previousErrors?: unknown }).previousErrors;
  return (
    error.message.startsWith('EXECABORT') &&
    Array.isArray(previous) &&
    previous.some((e: unknown) => e instanceof Error && e.message.startsWith('NOREPLICAS'))
  );
}

/** How long a replica may take to confirm a write while the connection is known short of replicas. */
const PROBE_TIMEOUT_MS = 50;

/** Per connection: until when its writes are refused without a `WAIT`, after one came back short. */
const shortUntil = new WeakMap<Redis, number>();

/**
 * Waits until `config.replicas` replicas hold every write this connection has sent so far (`WAIT`), or throws
 * {@link WriteNotReplicatedError}. Call it on the connection that wrote, after the write and before answering
 * or acting on it. Off (no round trip) when `config.replicas` is 0.
 *
 * A `WAIT` holds the whole connection until it returns, and the BFF's requests share one: while replicas are
 * missing (a failover under way), full-length waits one behind the other would stall every request, reads and
 * `/readyz` included. So once a wait comes back short, the connection's writes are refused at once (no `WAIT`:
 * refusing is always safe) for `config.timeoutMs`, then one short wait probes whether the replicas are back.
 */
export async function confirmReplicated(redis: Redis, config: ReplicaWaitConfig): Promise<void> {
  if (config.replicas <= 0) return;
  const until = shortUntil.get(redis);
  const now = Date.now();
  if (until !== undefined && now < until) throw new WriteNotReplicatedError(config.replicas, 0);
  // Known short: this call is the probe, and the others keep being refused while it runs.
  if (until !== undefined) shortUntil.set(redis, now + config.timeoutMs);
  const confirmed = await redis.wait(
    config.replicas,
    until !== undefined ? Math.min(PROBE_TIMEOUT_MS, config.timeoutMs) : config.timeoutMs,
  );
  if (confirmed < config.replicas) {
    shortUntil.set(redis, Date.now() + config.timeoutMs);
    throw new WriteNotReplicatedError(config.replicas, confirmed);
  }
  shortUntil.delete(redis);
}

/**
 * Whether this connection's writes are acknowledged now: false while they are refused for want of replicas (a
 * wait came back short). Once the refusal period is over it probes, as the next write would, so a readiness check
 * turns green again when the replicas are back even if no write comes in meanwhile.
 */
export async function acceptsWrites(redis: Redis, config: ReplicaWaitConfig): Promise<boolean> {
  if (config.replicas <= 0 || !shortUntil.has(redis)) return true;
  try {
    await confirmReplicated(redis, config);
    return true;
  } catch (error) {
    if (error instanceof WriteNotReplicatedError) return false;
    throw error;
  }
}

/** The wait an app's parsed environment asks for (`serverEnvFields`). */
export function replicaWaitOf(env: {
  REDIS_WAIT_REPLICAS: number;
  REDIS_WAIT_TIMEOUT_MS: number;
}): ReplicaWaitConfig {
  return { replicas: env.REDIS_WAIT_REPLICAS, timeoutMs: env.REDIS_WAIT_TIMEOUT_MS };
}
