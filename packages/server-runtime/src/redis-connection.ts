import { readFileSync } from 'node:fs';
import { Redis, type RedisOptions } from 'ioredis';
import * as z from 'zod';
import { redisEnvFields } from './env-fields.js';
import { parseEnv } from './parse-env.js';

const RedisConnectionSchema = z.object(redisEnvFields);

/** The parsed `redisEnvFields`, as an app's `Env` holds them. */
export type RedisConnectionEnv = z.output<typeof RedisConnectionSchema>;

/** `redisEnvFields` read from a process environment, for scripts that have no schema of their own. */
export function redisConnectionFromEnv(source: NodeJS.ProcessEnv): RedisConnectionEnv {
  // parseEnv reports keys and zod's messages, never the values: no password reaches the error.
  return parseEnv(RedisConnectionSchema, source);
}

/**
 * What a connection is for, and so how it behaves when Redis is slow or gone (each as the code did before the
 * factory):
 * - `blocking`: BullMQ's queues and workers and the stream drainers. BullMQ requires `maxRetriesPerRequest: null`:
 *   its blocking commands must wait out a restart or a failover, never fail.
 * - `requests`: the BFF's request connection. Fails fast (503 with Retry-After) rather than queue behind
 *   reconnection: no offline queue, one retry, a command timeout; auto-pipelined.
 * - `script`: an operator's one-off run (keys:reseal): a few retries, then the error.
 */
export type RedisPurpose = 'blocking' | 'requests' | 'script';

const PURPOSE_OPTIONS: Record<RedisPurpose, RedisOptions> = {
  blocking: { maxRetriesPerRequest: null },
  requests: {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    commandTimeout: 2000,
    connectTimeout: 2000,
    // Reconnect quickly and keep trying: /readyz turns true again as soon as Redis is back.
    retryStrategy: (times) => Math.min(100 * times, 1000),
    enableAutoPipelining: true,
  },
  script: { maxRetriesPerRequest: 3 },
};

/** The ioredis options of `redisEnvFields`, without the purpose's behaviour. */
export function redisConnectionOptions(env: RedisConnectionEnv): RedisOptions {
  const url = new URL(env.REDIS_URL);
  const username = env.REDIS_USERNAME ?? (decodeURIComponent(url.username) || undefined);
  const password = env.REDIS_PASSWORD ?? (decodeURIComponent(url.password) || undefined);
  const db = Number(url.pathname.slice(1) || 0);
  const tls =
    url.protocol === 'rediss:'
      ? env.REDIS_TLS_CA_FILE
        ? { ca: readFileSync(env.REDIS_TLS_CA_FILE) }
        : {}
      : undefined;
  const common: RedisOptions = {
    ...(username ? { username } : {}),
    ...(password ? { password } : {}),
    db,
    ...(tls ? { tls } : {}),
  };
  if (!env.REDIS_SENTINELS) {
    return { ...common, host: url.hostname, port: Number(url.port || 6379) };
  }
  return {
    ...common,
    sentinels: env.REDIS_SENTINELS,
    name: env.REDIS_SENTINEL_NAME,
    ...(env.REDIS_SENTINEL_USERNAME ? { sentinelUsername: env.REDIS_SENTINEL_USERNAME } : {}),
    ...(env.REDIS_SENTINEL_PASSWORD ? { sentinelPassword: env.REDIS_SENTINEL_PASSWORD } : {}),
    // rediss:// means TLS to the Sentinels as well as to the data nodes, with the same CA.
    ...(tls ? { enableTLSForSentinelMode: true, sentinelTLS: tls } : {}),
    // Hear +switch-master from the Sentinels instead of waiting for the old primary's socket to fail.
    failoverDetector: true,
    // A demoted primary answers writes with READONLY until the connection moves: reconnect (through the
    // Sentinels, to the new primary) and send the command again.
    reconnectOnError: (err) => (err.message.startsWith('READONLY') ? 2 : false),
  };
}

/**
 * A new Redis connection to what `redisEnvFields` name (one node or the Sentinels' primary, TLS and ACL user as
 * configured), behaving as `purpose` says; `overrides` adjusts a purpose's options (a test's shorter timeout).
 * Every connection of the BFF, the worker and the scripts comes from here, so BullMQ's, the lead store's, the
 * subscribers' and the rate limiter's all follow a failover the same way (`duplicate()` keeps the options).
 */
export function createRedis(
  env: RedisConnectionEnv,
  purpose: RedisPurpose,
  overrides: RedisOptions = {},
): Redis {
  return reconnectingAfterEnd(
    new Redis({ ...redisConnectionOptions(env), ...PURPOSE_OPTIONS[purpose], ...overrides }),
  );
}

/** How long a connection that ended by itself, and was given no command meanwhile, waits before it connects again. */
const RECONNECT_AFTER_END_MS = 500;

/** ioredis's message for a connection that ended ("Connection is closed."). */
const CONNECTION_CLOSED = 'Connection is closed.';

/** ioredis's own way of rejecting what waits for a connection, which its types keep private. */
interface QueueFlushing {
  flushQueue(error: Error, options?: { offlineQueue?: boolean; commandQueue?: boolean }): void;
}

/**
 * A connection that only its owner can end. ioredis ends a connection for good (status `end`, every command then
 * "Connection is closed.") when it is told to reconnect while it is still connecting: with Sentinels, a
 * `+switch-master` (the failover detector) or a READONLY answer arriving while it asks a Sentinel for the primary,
 * which a loaded machine makes likely during a failover. Left alone, the commands waiting for the connection are
 * rejected at that moment, and a worker whose BullMQ connections ended stopped taking jobs and said nothing. Here,
 * unless its owner called `quit()` or `disconnect()`:
 * - the commands waiting for the connection (its offline queue) stay queued and are sent once it is back;
 * - a command sent after it ended connects it again at once and waits like them (on a connection with an offline
 *   queue; the BFF's fail-fast one answers at once that the stream is not writable, as it does while reconnecting);
 * - it connects again by itself after `RECONNECT_AFTER_END_MS`;
 * and so do its duplicates (BullMQ's blocking connections are duplicates of the one it is given).
 */
export function reconnectingAfterEnd(redis: Redis): Redis {
  let closing = false;
  const quit = redis.quit.bind(redis);
  const disconnect = redis.disconnect.bind(redis);
  const duplicate = redis.duplicate.bind(redis);
  const queues = redis as unknown as QueueFlushing;
  const flushQueue = queues.flushQueue.bind(redis);
  const sendCommand = redis.sendCommand.bind(redis);
  const endedByItself = () => !closing && redis.status === 'end';
  redis.quit = ((...args: Parameters<Redis['quit']>) => {
    closing = true;
    return quit(...args);
  }) as Redis['quit'];
  redis.disconnect = (reconnect = false) => {
    if (!reconnect) closing = true;
    disconnect(reconnect);
  };
  redis.duplicate = (override) => reconnectingAfterEnd(duplicate(override));
  queues.flushQueue = (error, options) => {
    const keepWaiting = !closing && error.message === CONNECTION_CLOSED;
    flushQueue(error, keepWaiting ? { ...options, offlineQueue: false } : options);
  };
  redis.sendCommand = (...args) => {
    if (endedByItself()) redis.connect().catch(() => undefined);
    return sendCommand(...args);
  };
  redis.on('end', () => {
    if (closing) return;
    setTimeout(() => {
      if (endedByItself()) redis.connect().catch(() => undefined);
    }, RECONNECT_AFTER_END_MS).unref();
  });
  return redis;
}

/** Where the connections go, for a log line: no password, no user name. */
export function describeRedis(env: RedisConnectionEnv): string {
  const url = new URL(env.REDIS_URL);
  const tls = url.protocol === 'rediss:' ? ', TLS' : '';
  const acl =
    env.REDIS_USERNAME || env.REDIS_PASSWORD || url.username || url.password ? ', authenticated' : '';
  const db = url.pathname.length > 1 ? `, db ${url.pathname.slice(1)}` : '';
  if (env.REDIS_SENTINELS) {
    const sentinels = env.REDIS_SENTINELS.map((s) => `${s.host}:${s.port}`).join(',');
    return `sentinel primary "${env.REDIS_SENTINEL_NAME}" via ${sentinels}${tls}${acl}${db}`;
  }
  return `${url.hostname}:${url.port || 6379}${tls}${acl}${db}`;
}
