import * as z from 'zod';

/**
 * Environment pieces more than one server process declares: the value shapes (`boolish`, `commaList`, the log
 * level) and the keys the BFF and the worker both read (`serverEnvFields`), so each key has one schema, one
 * default and one comment. An app's `env.ts` spreads these into its own `z.object`.
 */

/** `true`/`1` or `false`/`0`, as operators write switches. */
export const boolish = z.enum(['true', 'false', '1', '0']).transform((v) => v === 'true' || v === '1');

/** pino's levels; `silent` turns logging off (tests, benchmarks). */
export const LogLevelSchema = z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']);

/** The entries of a comma-separated value, trimmed, empty entries dropped (`'a, b,'` → `['a', 'b']`). */
export function splitCommaList(value: string): string[] {
  return value
    .split(',')
    .map((part) => part.trim())
    .filter(Boolean);
}

/** A comma-separated variable as its entries; pipe it into the entries' own schema. */
export const commaList = z.string().transform(splitCommaList);

/** The keys the BFF and the worker both read, with the same meaning and default in each. */
export const serverEnvFields = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: LogLevelSchema.default('info'),
  REDIS_URL: z.string().url().default('redis://127.0.0.1:6379'),
  /** Every key, stream and queue of the product lives under it, so several deployments can share one Redis. */
  REDIS_KEY_PREFIX: z.string().min(1).default('funnel:'),
  /** The suppression-list key: the BFF records opt-outs, the worker checks them before any sync or cross-sell. */
  SUPPRESSION_HASH_SECRET: z.string().min(32, 'the suppression hash secret needs 32+ characters'),
  /**
   * The system of record (PostgreSQL). Set, the BFF records lead events and answers the operator reports, and
   * the worker applies its migrations at start, drains the events into it and records each final outcome; unset,
   * none of that runs.
   */
  DATABASE_URL: z.string().url().optional(),
  /** How long consent evidence is kept after the consent (5 years by default, past any lead's purge). */
  CONSENT_RETENTION_DAYS: z.coerce.number().positive().default(1826),
  /**
   * Accept http:// webhook addresses and deliver to loopback and private addresses (local runs and tests);
   * refused in production (`refuseInsecureWebhooksInProduction`).
   */
  PARTNER_WEBHOOK_INSECURE: boolish.default(false),
};

/** The production check of `PARTNER_WEBHOOK_INSECURE`, for an app schema's `superRefine`. */
export function refuseInsecureWebhooksInProduction(
  env: { NODE_ENV: string; PARTNER_WEBHOOK_INSECURE: boolean },
  ctx: z.RefinementCtx,
): void {
  if (env.NODE_ENV === 'production' && env.PARTNER_WEBHOOK_INSECURE) {
    ctx.addIssue({
      code: 'custom',
      path: ['PARTNER_WEBHOOK_INSECURE'],
      message: 'production webhooks go over https to public addresses only',
    });
  }
}
