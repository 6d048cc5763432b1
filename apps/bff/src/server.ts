import { prettyLogDestination } from '@funnel/server-runtime/log-destination';
import { closeOnSignals } from '@funnel/server-runtime/shutdown';
import { buildApp } from './app.js';
import { loadEnv } from './env.js';
import { createLogger } from './logger.js';
import { loadReferenceData } from './reference-data/reference-data.js';

const env = loadEnv();
// Pretty lines for a person at a terminal in development; JSON everywhere else.
const logger = createLogger(
  env.LOG_LEVEL,
  prettyLogDestination({ nodeEnv: env.NODE_ENV, isTTY: process.stdout.isTTY === true }),
);
const referenceData = await loadReferenceData(env.REFERENCE_DATA_DIR, logger);
const app = await buildApp({ env, logger, referenceData });

closeOnSignals(() => app.close(), logger);

await app.listen({ host: env.HOST, port: env.PORT });
