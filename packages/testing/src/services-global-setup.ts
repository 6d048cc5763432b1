import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { findTestServices, type TestServices } from '../../../scripts/services.mjs';
import { givenServiceUrls, publishServiceUrls } from './env.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
    databaseUrl: string;
  }
}

/** One set of services per vitest process, however many projects list this setup (the root config does too). */
interface Shared {
  services: Promise<TestServices>;
  users: number;
}
const SHARED = Symbol.for('funnel.test-services');
const registry = globalThis as { [SHARED]?: Shared };

/**
 * Finds the Redis and the PostgreSQL the tests run against (scripts/services.mjs: REDIS_URL, else 127.0.0.1:6379,
 * else a private redis-server, else testcontainers; TEST_DATABASE_URL, else 127.0.0.1:5432, else testcontainers,
 * else PGlite), says which in one line, and stops what it started once the last project is done. Tests read the
 * URLs with `inject('redisUrl')` / `inject('databaseUrl')`, or `testEnv` (REDIS_URL and TEST_DATABASE_URL are set
 * for the test workers).
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  let shared = registry[SHARED];
  if (!shared) {
    // Imported here, not in services.mjs (vitest leaves .mjs files to Node, which would want packages/db's build),
    // by path: @funnel/db depends on this package, so this package cannot depend on it.
    const loadPglite = () => import('../../db/src/pglite-server.js');
    const services = findTestServices(givenServiceUrls, { loadPglite }).then((found) => {
      process.stdout.write(`${found.line}\n`);
      publishServiceUrls({ REDIS_URL: found.redisUrl, TEST_DATABASE_URL: found.databaseUrl });
      return found;
    });
    shared = { services, users: 0 };
    registry[SHARED] = shared;
  }
  shared.users += 1;
  const services = await shared.services;
  project.provide('redisUrl', services.redisUrl);
  project.provide('databaseUrl', services.databaseUrl);
  const mine = shared;
  return async () => {
    mine.users -= 1;
    if (mine.users > 0) return;
    delete registry[SHARED];
    publishServiceUrls(givenServiceUrls);
    await services.stop();
  };
}
