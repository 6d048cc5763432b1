import { pino } from 'pino';
import { prettyLogDestination } from '@funnel/server-runtime/log-destination';
import { closeOnSignals } from '@funnel/server-runtime/shutdown';
import { startTracing } from '@funnel/server-runtime/tracing';
import { buildWorker } from './build-worker.js';
import { loadEnv } from './env.js';

const env = loadEnv();
// Pretty lines for a person at a terminal in development; JSON everywhere else.
const pretty = await prettyLogDestination({ nodeEnv: env.NODE_ENV, isTTY: process.stdout.isTTY === true });
const logger = pretty ? pino({ level: env.LOG_LEVEL }, pretty) : pino({ level: env.LOG_LEVEL });

const tracing = await startTracing({
  serviceName: 'funnel-worker',
  endpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
});
const worker = await buildWorker(env, { logger });
closeOnSignals(
  async () => {
    await worker.close();
    await tracing?.shutdown();
  },
  logger,
  15_000,
);
