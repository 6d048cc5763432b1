// The BFF itself, built from source as apps/bff/src/server.ts builds it, with the set of answers it seals at rest
// chosen by BENCH_SEALED: `sensitive` (SSN, bank, licence, birth date: the set before issue 32) or `all` (those
// and every personal field, today's default). The step-save bench runs one of each to price the sealing.
import { isSensitiveServerField } from '@funnel/contracts/fields';
import { buildApp } from '../../apps/bff/src/app.js';
import { loadEnv } from '../../apps/bff/src/env.js';
import { createLogger } from '../../apps/bff/src/logger.js';
import { loadReferenceData } from '../../apps/bff/src/reference-data/reference-data.js';

const env = loadEnv();
const logger = createLogger(env.LOG_LEVEL);
const referenceData = await loadReferenceData(env.REFERENCE_DATA_DIR, logger);
const sealed = process.env.BENCH_SEALED;
if (sealed !== 'sensitive' && sealed !== 'all') throw new Error('BENCH_SEALED must be sensitive or all');
const app = await buildApp({
  env,
  logger,
  referenceData,
  ...(sealed === 'sensitive' ? { sealedFields: isSensitiveServerField } : {}),
});
app.get('/ready', async () => ({ ok: true }));
await app.listen({ host: '127.0.0.1', port: Number(process.env.PORT) });
