import type { FastifyPluginAsync } from 'fastify';

/** Liveness (the process answers) and readiness (Redis answers) for orchestrators and load balancers. */
const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthz', { schema: { hide: true } }, async () => ({ status: 'ok' }));
  app.get('/readyz', { schema: { hide: true } }, async (_request, reply) => {
    try {
      await app.redis.ping();
      return { status: 'ready' };
    } catch {
      return reply.code(503).send({ status: 'redis unavailable' });
    }
  });
};

export default healthRoutes;
