import type {} from 'vitest';
import type { TestProject } from 'vitest/node';
import { testEnv } from './env.js';

declare module 'vitest' {
  export interface ProvidedContext {
    redisUrl: string;
  }
}

const HOW_TO =
  'Tests need a real Redis. Set REDIS_URL (for example redis://127.0.0.1:6379 after `apt-get install redis-server`), ' +
  'or run the tests where a Docker engine is available so a Redis container can be started.';

/**
 * Finds the Redis the tests run against: REDIS_URL, else a testcontainers Redis, else a clear failure.
 */
export default async function setup(project: TestProject): Promise<() => Promise<void>> {
  const fromEnv = testEnv.redisUrl;
  if (fromEnv) {
    project.provide('redisUrl', fromEnv);
    return async () => {};
  }
  let container: { getConnectionUrl(): string; stop(): Promise<unknown> };
  try {
    const { RedisContainer } = await import('@testcontainers/redis');
    container = await new RedisContainer('redis:7-alpine').start();
  } catch (error) {
    throw new Error(`${HOW_TO}\n(testcontainers: ${(error as Error).message})`);
  }
  project.provide('redisUrl', container.getConnectionUrl());
  return async () => {
    await container.stop();
  };
}
