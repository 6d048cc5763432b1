import { randomBytes } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { Redis } from 'ioredis';
import { pino, type Logger } from 'pino';
import { inject } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { testEnv as testRunEnv } from '@funnel/testing/env';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import { buildApp } from '../src/app.js';
import { loadEnv, type Env } from '../src/env.js';
import { loadReferenceData } from '../src/reference-data/reference-data.js';
import type { ReferenceData } from '../src/reference-data/reference-data.js';

let referenceData: Promise<ReferenceData> | undefined;

/** Reference data is read once per test file: it is large and never changes during a run. */
export function sharedReferenceData(): Promise<ReferenceData> {
  referenceData ??= loadReferenceData(testRunEnv.referenceDataDir, pino({ level: 'silent' }));
  return referenceData;
}

export function testEnv(overrides: Record<string, string> = {}): Env {
  return loadEnv({
    NODE_ENV: 'test',
    REDIS_URL: inject('redisUrl'),
    REDIS_KEY_PREFIX: testKeyPrefix('bff'),
    FIELD_ENCRYPTION_KEYS: `test:${randomBytes(32).toString('base64')}`,
    COOKIE_SECRETS: randomBytes(32).toString('hex'),
    SUPPRESSION_HASH_SECRET: randomBytes(32).toString('hex'),
    LOG_LEVEL: 'silent',
    // Most tests submit the same fictitious borrower again and again; duplicates.int.test.ts turns it on.
    DUPLICATE_WINDOW_DAYS: '0',
    // Console tests sign in on sessions of each role; operator-sign-in-hardening.int.test.ts turns the rule on.
    OPERATOR_SECOND_FACTOR_ROLES: 'none',
    ...overrides,
  });
}

export interface TestApp {
  app: FastifyInstance;
  env: Env;
  /** A separate connection for assertions on what the app stored. */
  redis: Redis;
  close(): Promise<void>;
}

/** A real BFF on real Redis under a key prefix of its own; `close` deletes every key it wrote. */
export async function startTestApp(
  options: { env?: Record<string, string>; now?: () => Date; logger?: Logger } = {},
): Promise<TestApp> {
  const env = testEnv(options.env);
  const app = await buildApp({
    env,
    logger: options.logger ?? pino({ level: 'silent' }),
    referenceData: await sharedReferenceData(),
    ...(options.now ? { now: options.now } : {}),
  });
  await app.ready();
  const redis = new Redis(env.REDIS_URL);
  return {
    app,
    env,
    redis,
    async close() {
      await deleteKeys(redis, env.REDIS_KEY_PREFIX);
      await redis.quit();
      await app.close();
    },
  };
}
