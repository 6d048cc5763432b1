import { buildApp } from './app.js';
import { loadEnv } from './env.js';
import { createLogger } from './logger.js';
import { loadReferenceData } from './reference-data/reference-data.js';

const env = loadEnv();
const logger = createLogger(env.LOG_LEVEL);
const referenceData = await loadReferenceData(env.REFERENCE_DATA_DIR, logger);
const app = await buildApp({ env, logger, referenceData });

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => {
    if (closing) return;
    closing = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 10_000);
    force.unref();
    app.close().then(
      () => process.exit(0),
      (err: unknown) => {
        logger.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}

await app.listen({ host: env.HOST, port: env.PORT });
