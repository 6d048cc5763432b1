import type { FastifyPluginAsync } from 'fastify';
import { acceptsWrites, type ReplicaWaitConfig } from '@funnel/server-runtime/replica-wait';

/**
 * Liveness (the process answers) and readiness for orchestrators and load balancers: Redis answers, and takes
 * this instance's writes (not while they are refused for want of replicas, docs/adr/0018).
 */
const healthRoutes: FastifyPluginAsync<{ replicaWait: ReplicaWaitConfig; version: string }> = async (
  app,
  { replicaWait, version },
) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok', version }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await app.redis.ping();
    } catch {
      return reply.code(503).send({ status: 'redis unavailable' });
    }
    if (!(await acceptsWrites(app.redis, replicaWait).catch(() => false))) {
      return reply.code(503).send({ status: 'writes refused: replicas missing' });
    }
    return { status: 'ready' };
  });
};

export default healthRoutes;
