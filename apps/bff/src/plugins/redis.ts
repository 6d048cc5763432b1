import fp from 'fastify-plugin';
import { Redis } from 'ioredis';

declare module 'fastify' {
  interface FastifyInstance {
    redis: Redis;
  }
}

/**
 * One shared Redis connection for leads and queues; closed with the app. Auto-pipelined: the commands that
 * concurrent requests issue in the same tick go out in one socket write, where each used to cost its own
 * (a write per command was the largest single cost of a step save under load, bench/RESULTS.md).
 */
export default fp<{ url: string }>(
  async (app, { url }) => {
    const redis = new Redis(url, {
      maxRetriesPerRequest: 2,
      enableOfflineQueue: true,
      connectTimeout: 5000,
      enableAutoPipelining: true,
    });
    redis.on('error', (err) => app.log.warn({ err: err.message }, 'redis connection error'));
    app.decorate('redis', redis);
    app.addHook('onClose', async () => {
      await redis.quit().catch(() => redis.disconnect());
    });
  },
  { name: 'redis' },
);
