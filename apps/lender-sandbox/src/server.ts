import { closeOnSignals } from '@funnel/server-runtime/shutdown';
import { buildSandbox } from './app.js';
import { loadEnv } from './env.js';
import { createLogger } from './logger.js';

const env = loadEnv();
const logger = createLogger(env.logLevel);
const app = await buildSandbox(env.sandbox, { logger });

closeOnSignals(() => app.close(), logger);

await app.listen({ host: env.host, port: env.port });
logger.info({ publicUrl: env.sandbox.publicUrl, outcome: env.sandbox.outcome }, 'lender sandbox ready');
