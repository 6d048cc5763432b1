import type { EventEmitter } from 'node:events';

interface WatchLogger {
  warn(details: object, message: string): void;
  info(details: object, message: string): void;
}

export interface RedisWatch {
  /** True while the connection is ready to take commands. */
  readonly up: boolean;
}

/**
 * Logs one warning when a Redis connection goes down and one line when it is back, instead of an error per
 * reconnection attempt or per failed command. `onChange` lets a metric follow the state.
 */
export function watchRedis(
  redis: EventEmitter & { status: string },
  logger: WatchLogger,
  name: string,
  onChange?: (up: boolean) => void,
): RedisWatch {
  // Unknown until the first connection attempt ends: the first 'ready' is the start, not a recovery.
  const state = {
    up: (redis.status === 'ready' ? true : undefined) as boolean | undefined,
    since: Date.now(),
    lastError: undefined as string | undefined,
  };
  const down = () => {
    if (state.up === false) return;
    state.up = false;
    state.since = Date.now();
    logger.warn({ redis: name, err: state.lastError }, 'redis unavailable; retrying in the background');
    onChange?.(false);
  };
  redis.on('error', (err: Error) => {
    state.lastError = err.message;
  });
  redis.on('close', down);
  redis.on('end', down);
  redis.on('ready', () => {
    if (state.up === true) return;
    if (state.up === undefined) {
      state.up = true;
      onChange?.(true);
      return;
    }
    const wasDownMs = Date.now() - state.since;
    state.up = true;
    state.since = Date.now();
    logger.warn({ redis: name, downMs: wasDownMs }, 'redis available again');
    onChange?.(true);
  });
  return {
    get up() {
      return state.up === true;
    },
  };
}

// With Sentinel, also the moment of a failover when no Sentinel names a reachable primary yet, and a command cut
// off by the dying primary.
const CONNECTION_ERROR =
  /ECONNREFUSED|ECONNRESET|EPIPE|ETIMEDOUT|Connection is closed|Stream isn't writeable|Command timed out|LOADING|max retries per request|All sentinels are unreachable|Command aborted due to connection close/i;

/** True for errors that only echo a Redis outage (the watcher logs the outage once), not a fault of their own. */
export function isRedisOutageEcho(error: unknown, watch?: RedisWatch): boolean {
  if (watch && !watch.up) return true;
  return error instanceof Error && CONNECTION_ERROR.test(error.message);
}
