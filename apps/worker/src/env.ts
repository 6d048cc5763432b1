import * as z from 'zod';
import { EncryptionKeysSchema } from '@funnel/lead-store/encryption-keys';

const hostList = z.string().transform((s) =>
  s
    .split(',')
    .map((p) => p.trim().toLowerCase())
    .filter(Boolean),
);

export const EnvSchema = z.object({
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  REDIS_KEY_PREFIX: z.string().min(1).default('funnel:'),
  FIELD_ENCRYPTION_KEYS: EncryptionKeysSchema,
  LENDER_NETWORK_URL: z.string().url().default('http://127.0.0.1:4010'),
  /** Sent as a bearer token when set. */
  LENDER_NETWORK_API_KEY: z.string().optional(),
  LENDER_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
  LENDER_HEADERS_TIMEOUT_MS: z.coerce.number().int().positive().default(15000),
  LENDER_BODY_TIMEOUT_MS: z.coerce.number().int().positive().default(15000),
  LENDER_CONNECTIONS: z.coerce.number().int().positive().default(64),
  POLL_INTERVAL_MS: z.coerce.number().int().positive().default(2000),
  WORKER_CONCURRENCY: z.coerce.number().int().positive().default(100),
  /** Redirect hosts that are partner offers rather than lenders ('Suitable program found' screen). */
  PARTNER_OFFER_HOSTS: hostList.default([]),
  /** Where a no-lender borrower is sent after 2 s, when configured. */
  NO_LENDER_FALLBACK_URL: z.string().url().optional(),
  /** How long a job may stay locked by a worker that stopped answering before another takes it over. */
  STALLED_INTERVAL_MS: z.coerce.number().int().positive().default(30000),
  LOCK_DURATION_MS: z.coerce.number().int().positive().default(30000),
});

export type Env = z.infer<typeof EnvSchema>;

/** Parses the environment once at start; fails listing every bad key. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  // An empty variable means "not set" (compose passes unset variables through as empty strings).
  const present = Object.fromEntries(Object.entries(source).filter(([, value]) => value !== ''));
  const parsed = EnvSchema.safeParse(present);
  if (!parsed.success) {
    const lines = parsed.error.issues.map(
      (issue) => `  ${issue.path.join('.') || '(env)'}: ${issue.message}`,
    );
    throw new Error(`Invalid configuration:\n${lines.join('\n')}`);
  }
  return parsed.data;
}
