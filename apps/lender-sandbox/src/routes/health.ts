import type { FastifyPluginAsync } from 'fastify';

/**
 * Liveness and readiness for start scripts, orchestrators and image healthchecks. The sandbox keeps its state in
 * memory and depends on nothing, so it is ready as soon as it answers.
 */
const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async () => ({ status: 'ready' }));
};

export default healthRoutes;
