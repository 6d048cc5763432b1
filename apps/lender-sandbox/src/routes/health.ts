import type { FastifyPluginAsync } from 'fastify';

/** Liveness for start scripts and orchestrators. */
const healthRoutes: FastifyPluginAsync = async (app) => {
  app.get('/healthz', async () => ({ status: 'ok' }));
};

export default healthRoutes;
