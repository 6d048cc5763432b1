// The BFF's environment in every fault scenario, in one place.
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
