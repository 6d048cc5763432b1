// The BFF's environment in every fault scenario, and its fresh secrets, in one place.
import { randomBytes } from 'node:crypto';
import { FICTITIOUS_BRAND_SETTINGS } from '@funnel/testing/brand-settings';
import { testEnv } from '@funnel/testing/env';

/**
 * The BFF as a scenario runs it: built for production, on the loopback at `port`, its rate limits out of the way,
 * the scenario's partner key and decision deadline. `redis` is how it reaches Redis (URL and key prefix, or the
 * Sentinel settings), `env` what the scenario adds; the run's secrets come last.
 */
export function faultBffEnv(options: {
  port: number;
  redis: Record<string, string>;
  partnerKeyEntry: string;
  deadlineMs: number;
  secrets: Record<string, string>;
  env?: Record<string, string>;
}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    ...FICTITIOUS_BRAND_SETTINGS,
    LOG_LEVEL: 'warn',
    HOST: '127.0.0.1',
    PORT: String(options.port),
    ...options.redis,
    ...options.env,
    REFERENCE_DATA_DIR: testEnv.referenceDataDir,
    COOKIE_SECURE: 'false',
    RATE_LIMIT_MAX: '1000000000',
    PARTNER_API_KEYS: options.partnerKeyEntry,
    DECISION_DEADLINE_MS: String(options.deadlineMs),
    ...options.secrets,
  };
}

/** Fresh secrets for one scenario's run, its encryption key named `keyId`; the workers get the same. */
export function faultSecrets(keyId: string): Record<string, string> {
  return {
    FIELD_ENCRYPTION_KEYS: `${keyId}:${randomBytes(32).toString('base64')}`,
    COOKIE_SECRETS: randomBytes(32).toString('hex'),
    SUPPRESSION_HASH_SECRET: randomBytes(32).toString('hex'),
  };
}
