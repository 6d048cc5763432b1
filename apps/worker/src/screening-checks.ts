import type { Redis } from 'ioredis';
import type { ScreeningVerdict } from '@funnel/contracts/screening';
import type { Env } from './env.js';
import { createContactScreen, type DoNotCallLookup } from './screening/contact-screen.js';
import { createEmailScreen } from './screening/email-screen.js';
import { createIpVelocity } from './screening/ip-velocity.js';
import { createLitigatorList } from './screening/litigator-list.js';

const HOUR_MS = 3600_000;

/**
 * The worker's screening from its settings (ADR 0029): the checks that can run here, bounded by
 * SCREENING_TIMEOUT_MS, and where each verdict is recorded (the system of record's `screened` event; without a
 * database only on the lead and in the log).
 */
export function screeningOf(
  env: Pick<
    Env,
    | 'SCREENING_TIMEOUT_MS'
    | 'SCREENING_EMAIL_DNS'
    | 'SCREENING_IP_MAX_PER_HOUR'
    | 'LITIGATOR_LIST_URL'
    | 'LITIGATOR_LIST_API_KEY'
    | 'REDIS_KEY_PREFIX'
    | 'SUPPRESSION_HASH_SECRET'
  >,
  options: {
    /** Where the leads per address are counted. */
    redis: Redis;
    doNotCall: DoNotCallLookup | undefined;
    record: ((leadId: string, verdict: ScreeningVerdict) => Promise<void>) | undefined;
  },
) {
  const timeoutMs = env.SCREENING_TIMEOUT_MS;
  const litigators =
    env.LITIGATOR_LIST_URL && env.LITIGATOR_LIST_API_KEY
      ? createLitigatorList({
          baseUrl: env.LITIGATOR_LIST_URL,
          apiKey: env.LITIGATOR_LIST_API_KEY,
          timeoutMs,
        })
      : undefined;
  // Without resolvers the email check is the disposable list alone, which needs no lookup.
  const email = createEmailScreen({
    servers: env.SCREENING_EMAIL_DNS ?? [],
    lookups: env.SCREENING_EMAIL_DNS !== undefined,
    timeoutMs,
    tries: 1,
  });
  return {
    screen: createContactScreen({
      litigators,
      doNotCall: options.doNotCall,
      email,
      velocity:
        env.SCREENING_IP_MAX_PER_HOUR > 0
          ? {
              counter: createIpVelocity(options.redis, {
                keyPrefix: env.REDIS_KEY_PREFIX,
                hashSecret: env.SUPPRESSION_HASH_SECRET,
                windowMs: HOUR_MS,
              }),
              maxPerWindow: env.SCREENING_IP_MAX_PER_HOUR,
            }
          : undefined,
      timeoutMs,
      now: Date.now,
    }),
    record: options.record ?? (async () => undefined),
    async close() {
      email.close();
      await litigators?.close();
    },
  };
}
