import fp from 'fastify-plugin';
import type { Redis } from 'ioredis';
import { createRedis, describeRedis, type RedisConnectionEnv } from '@funnel/server-runtime/redis-connection';
import { watchRedis, type RedisWatch } from '@funnel/server-runtime/redis-watch';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis;
    /** Whether the request connection is up, as its events last said. */
    redisWatch: RedisWatch;
  }
}

/**
 * One shared Redis connection for leads and rate limits; closed with the app. Requests must fail fast when
 * Redis is gone (503 with Retry-After, see the error handler) rather than queue behind reconnection attempts:
 * the `requests` purpose of `createRedis` (no offline queue, one retry, a command timeout). Auto-pipelined: the
 * commands that concurrent requests issue in the same tick go out in one socket write, where each used to cost
 * its own (a write per command was the largest single cost of a step save under load, bench/HISTORY.md). Its
 * duplicates (the outcome subscriber, the rate limiter) keep its connection options: Sentinel, TLS, ACL user.
 */
export default fp<{
  connection: RedisConnectionEnv;
  commandTimeoutMs?: number;
  onRedisChange?: (up: boolean) => void;
}>(
  async (app, { connection, commandTimeoutMs = 2000, onRedisChange }) => {
    const redis = createRedis(connection, 'requests', { commandTimeout: commandTimeoutMs });
    const watch = watchRedis(redis, app.log, 'bff', onRedisChange);
    app.decorate('redis', redis);
    app.decorate('redisWatch', watch);
    // Where it goes, never the password (REDIS_URL may carry one).
    app.log.info({ redis: describeRedis(connection) }, 'redis connection');
    // Not ready at start-up is survivable: requests answer 503 and /readyz false until it connects.
    await redis
      .connect()
      .catch((err: Error) => app.log.warn({ err: err.message }, 'redis not reachable at start'));
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  },
  { name: 'redis' },
);
