import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The environment tests run in, read in one place: the Redis to use (when given), where the reference data is
 * (CI and this workspace: `../shared/data` beside the repository), and the PATH child processes need.
 */
export const testEnv = {
  redisUrl: process.env.REDIS_URL || undefined,
  referenceDataDir: process.env.REFERENCE_DATA_DIR || path.resolve(repoRoot, '../shared/data'),
  path: process.env.PATH ?? '',
} as const;
