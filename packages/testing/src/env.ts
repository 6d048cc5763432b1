import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/**
 * The environment tests run in, read in one place: the Redis to use (when given), the PostgreSQL to use
 * (`TEST_DATABASE_URL`, else the machine's at 127.0.0.1:5432, database `test`), where the reference data is (CI
 * and this workspace: `../shared/data` beside the repository), and the PATH child processes need. Under vitest,
 * the global setup (services-global-setup.ts) sets REDIS_URL and TEST_DATABASE_URL to the services it chose before
 * the test workers start; `npm test` sets them for every runner.
 */
export const testEnv = {
  redisUrl: process.env.REDIS_URL || undefined,
  databaseUrl: process.env.TEST_DATABASE_URL || 'postgres://postgres@127.0.0.1:5432/test',
  referenceDataDir: process.env.REFERENCE_DATA_DIR || path.resolve(repoRoot, '../shared/data'),
  path: process.env.PATH ?? '',
} as const;

/** The names of the service URLs the vitest global setup chooses and hands to the test workers. */
type ServiceUrls = { REDIS_URL: string | undefined; TEST_DATABASE_URL: string | undefined };

/**
 * The service URLs as this process was started with them (unset: undefined), for the global setup to search from
 * and to put back once the last project is done.
 */
export const givenServiceUrls: Readonly<ServiceUrls> = {
  REDIS_URL: process.env.REDIS_URL,
  TEST_DATABASE_URL: process.env.TEST_DATABASE_URL,
};

/**
 * Sets the service URLs in this process's environment (undefined: removes one), which the test workers and the
 * processes they start inherit.
 */
export function publishServiceUrls(urls: ServiceUrls): void {
  for (const [name, value] of Object.entries(urls)) {
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
  }
}
