import { prettyLogDestination } from '@funnel/server-runtime/log-destination';
import { closeOnSignals } from '@funnel/server-runtime/shutdown';
import { buildSandbox } from './app.js';
import { loadEnv } from './env.js';
import { createLogger } from './logger.js';

const env = loadEnv();
// Pretty lines for a person at a terminal in development; JSON everywhere else.
const logger = createLogger(
  env.logLevel,
  await prettyLogDestination({ nodeEnv: env.nodeEnv, isTTY: process.stdout.isTTY === true }),
);
const app = await buildSandbox(env.sandbox, { logger });

closeOnSignals(() => app.close(), logger);

await app.listen({ host: env.host, port: env.port });
logger.info({ publicUrl: env.sandbox.publicUrl, outcome: env.sandbox.outcome }, 'lender sandbox ready');
