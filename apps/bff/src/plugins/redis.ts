import fp from 'fastify-plugin';
import { Redis } from 'ioredis';
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
 * no offline queue, one retry, and a command timeout. Auto-pipelined: the commands that concurrent requests
 * issue in the same tick go out in one socket write, where each used to cost its own (a write per command was
 * the largest single cost of a step save under load, bench/RESULTS.md).
 */
export default fp<{ url: string; commandTimeoutMs?: number; onRedisChange?: (up: boolean) => void }>(
  async (app, { url, commandTimeoutMs = 2000, onRedisChange }) => {
    const redis = new Redis(url, {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 1,
      commandTimeout: commandTimeoutMs,
      connectTimeout: 2000,
      // Reconnect quickly and keep trying: /readyz turns true again as soon as Redis is back.
      retryStrategy: (times) => Math.min(100 * times, 1000),
      enableAutoPipelining: true,
    });
    const watch = watchRedis(redis, app.log, 'bff', onRedisChange);
    app.decorate('redis', redis);
    app.decorate('redisWatch', watch);
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
