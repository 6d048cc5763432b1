import { prettyLogDestination } from '@funnel/server-runtime/log-destination';
import { closeOnSignals } from '@funnel/server-runtime/shutdown';
import { startTracing } from '@funnel/server-runtime/tracing';
import { buildApp } from './app.js';
import { loadEnv } from './env.js';
import { createLogger } from './logger.js';
import { loadReferenceData } from './reference-data/reference-data.js';

const env = loadEnv();
// Pretty lines for a person at a terminal in development; JSON everywhere else.
const logger = createLogger(
  env.LOG_LEVEL,
  await prettyLogDestination({ nodeEnv: env.NODE_ENV, isTTY: process.stdout.isTTY === true }),
);
// Production refuses to start without its reference data (a forgotten volume), rather than serve fallbacks.
const referenceData = await loadReferenceData(env.REFERENCE_DATA_DIR, logger, {
  required: env.NODE_ENV === 'production',
}).catch((error: Error) => {
  logger.fatal({ err: error.message }, 'not starting');
  process.exit(1);
});
const tracing = await startTracing({ serviceName: 'funnel-bff', endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT });
const app = await buildApp({ env, logger, referenceData });

closeOnSignals(async () => {
  await app.close();
  await tracing?.shutdown();
}, logger);

await app.listen({ host: env.HOST, port: env.PORT });
