import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { pino, type Logger } from 'pino';
import { installErrorHandler } from './error-handler.js';
import { FaultInjector } from './fault-injector.js';
import { LenderSimulator } from './lender-simulator.js';
import healthRoutes from './routes/health.js';
import leadPingRoutes from './routes/lead-ping.js';
import leadSendRoutes from './routes/lead-send.js';
import lenderPageRoutes from './routes/lender-pages.js';
import litigatorListRoutes from './routes/litigator-list.js';
import optOutReceiverRoutes from './routes/opt-out-receiver.js';
import sandboxAdminRoutes from './routes/sandbox-admin.js';
import { SandboxConfigSchema, type SandboxConfigInput } from './sandbox-config.js';
import type { SandboxServices } from './sandbox-services.js';
import { registerSimulatedBuyers } from './simulated-buyers.js';

export interface SandboxOptions {
  /** Silent when left out (tests). */
  logger?: Logger;
  /** The clock pending durations are measured on, injectable so tests need no sleeps. */
  now?: () => number;
}

/**
 * Builds a lender-network sandbox: the protocol routes, the lender pages and the /_sandbox controls. Every
 * setting left out of `config` takes its default. `server.ts` only listens; tests call this and use
 * `app.inject` (or listen on port 0 for the connection-level faults).
 */
export async function buildSandbox(
  config: SandboxConfigInput = {},
  options: SandboxOptions = {},
): Promise<FastifyInstance> {
  const settings = SandboxConfigSchema.parse(config);
  const logger: FastifyBaseLogger = options.logger ?? pino({ level: 'silent' });
  const app = Fastify({ loggerInstance: logger });
  installErrorHandler(app);

  const simulator = new LenderSimulator(settings, options.now);
  const faults = new FaultInjector(() => simulator.config);
  app.addHook('preClose', async () => faults.close());

  const services: SandboxServices = { simulator, faults };
  await app.register(healthRoutes);
  await app.register(leadSendRoutes, services);
  await app.register(leadPingRoutes, services);
  await app.register(lenderPageRoutes, services);
  await app.register(sandboxAdminRoutes, services);
  await app.register(litigatorListRoutes, { ...services, apiKey: settings.litigatorApiKey });
  await app.register(optOutReceiverRoutes);

  const buyers = await registerSimulatedBuyers(app, settings, options.now);
  app.get('/_sandbox/buyers', async () => ({ buyers: buyers.stats() }));
  app.post('/_sandbox/buyers/reset', async (_request, reply) => {
    buyers.reset();
    return reply.code(204).send();
  });
  return app;
}
