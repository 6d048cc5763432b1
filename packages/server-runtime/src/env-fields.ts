import * as z from 'zod';
import { AddressAllowList, isAddressRange } from './network-address.js';

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

/** `host:port`, as `REDIS_SENTINELS` lists them. */
const hostPort = z
  .string()
  .regex(/^[^\s:]+:\d{1,5}$/, 'host:port')
  .transform((entry) => {
    const at = entry.lastIndexOf(':');
    return { host: entry.slice(0, at), port: Number(entry.slice(at + 1)) };
  });

/**
 * Where the BFF, the worker and the scripts find Redis, read by `createRedis`
 * (redis-connection.ts) and nothing else. A password never leaves these values: `describeRedis` is what may be
 * logged.
 */
export const redisEnvFields = {
  /**
   * `redis://[user:password@]host:port[/db]`, or `rediss://…` for TLS. With `REDIS_SENTINELS`, the host and port
   * are not used; the user, password, database and scheme (TLS) still are.
   */
  REDIS_URL: z
    .string()
    .url()
    .refine((url) => /^rediss?:\/\//.test(url), 'a redis:// or rediss:// URL')
    .default('redis://127.0.0.1:6379'),
  /** The ACL user and password; each wins over the one in `REDIS_URL` (a secret kept out of the URL). */
  REDIS_USERNAME: z.string().optional(),
  REDIS_PASSWORD: z.string().optional(),
  /** A PEM file of the CA that signed the server's certificate (a private CA); unset, Node's public CAs. */
  REDIS_TLS_CA_FILE: z.string().optional(),
  /** `host:port` of each Sentinel, comma-separated. Set, the primary is whatever they name, and followed on failover. */
  REDIS_SENTINELS: commaList.pipe(z.array(hostPort).min(1)).optional(),
  /** The name the Sentinels monitor the primary under (`sentinel monitor <name> …`). */
  REDIS_SENTINEL_NAME: z.string().min(1).default('mymaster'),
  /** The Sentinels' own credentials, when they require one (`requirepass`/ACL in sentinel.conf). */
  REDIS_SENTINEL_USERNAME: z.string().optional(),
  REDIS_SENTINEL_PASSWORD: z.string().optional(),
};

/** The secrets among `serverEnvFields`: each may be given as a file instead (`NAME_FILE`, `parseEnv`). */
export const SERVER_SECRET_SETTINGS = [
  'REDIS_PASSWORD',
  'REDIS_SENTINEL_PASSWORD',
  'SUPPRESSION_HASH_SECRET',
  'PGPASSWORD',
] as const;

/** The keys the BFF and the worker both read, with the same meaning and default in each. */
export const serverEnvFields = {
  NODE_ENV: z.enum(['development', 'test', 'production']).default('development'),
  LOG_LEVEL: LogLevelSchema.default('info'),
  ...redisEnvFields,
  /**
   * How many replicas must confirm a lead's writes (creation, submission, post claim, a buyer's answer, the
   * outcome…) before they are acknowledged or acted on (`WAIT`, docs/adr/0018). 0 (the default) turns it off: a
   * single Redis has no replica to wait for. With a replica, set 1 and pair it with `min-replicas-to-write 1`.
   */
  REDIS_WAIT_REPLICAS: z.coerce.number().int().min(0).default(0),
  /**
   * How long a write waits for its replicas before the request fails with a retryable 503 (a job: a retry).
   * Below the request connection's 2 s command timeout, so the refusal is ours, not a timeout's.
   */
  REDIS_WAIT_TIMEOUT_MS: z.coerce.number().int().positive().max(1500).default(500),
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
  /**
   * The system of record's password, apart from `DATABASE_URL` so any character is safe (and so it can come from
   * a file, `PGPASSWORD_FILE`). Unset, the URL's password, if any, is used.
   */
  PGPASSWORD: z.string().optional(),
  /** What build is running (the image's version label, `git describe` under `npm start`): `/healthz`, `funnel_build_info`. */
  APP_VERSION: z.string().min(1).default('dev'),
  /** How long consent evidence is kept after the consent (5 years by default, past any lead's purge). */
  CONSENT_RETENTION_DAYS: z.coerce.number().positive().default(1826),
  /**
   * Accept http:// webhook addresses and deliver to loopback and private addresses (local runs and tests);
   * refused in production (`refuseInsecureWebhooksInProduction`).
   */
  PARTNER_WEBHOOK_INSECURE: boolish.default(false),
  /**
   * The non-public address ranges a buyer's address may be in (comma-separated, `10.0.0.0/8`, `::1/128`, or an
   * address): the BFF refuses any other loopback, link-local or private address when an admin sets one, and the
   * worker refuses to connect to one, whatever a name resolves to (ADR 0024). Unset or empty: outside production
   * the loopback and private ranges (the sandbox in local runs and tests), none in production.
   */
  BUYER_PRIVATE_RANGES: z.preprocess(
    (value) => (value === '' ? undefined : value),
    commaList
      .pipe(z.array(z.string().refine(isAddressRange, 'an address or a range (10.0.0.0/8, ::1/128)')))
      .optional(),
  ),
  /**
   * The OTLP/HTTP collector traces go to (`<endpoint>/v1/traces`, JSON), as the OpenTelemetry variable of that
   * name means it. Unset (the default), tracing is off and costs nothing: no SDK is loaded (docs/tracing.md).
   */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.url({ protocol: /^https?$/ }).optional(),
};

/** The ranges local runs and tests reach the sandbox on: loopback and the private ranges, never link-local. */
const LOCAL_PRIVATE_RANGES = [
  '127.0.0.0/8',
  '::1/128',
  '10.0.0.0/8',
  '172.16.0.0/12',
  '192.168.0.0/16',
  'fc00::/7',
];

/** The non-public ranges buyer calls may reach: `BUYER_PRIVATE_RANGES`, or its default for `NODE_ENV`. */
export function buyerAddressAllowList(env: {
  NODE_ENV: string;
  BUYER_PRIVATE_RANGES?: string[] | undefined;
}): AddressAllowList {
  return new AddressAllowList(
    env.BUYER_PRIVATE_RANGES ?? (env.NODE_ENV === 'production' ? [] : LOCAL_PRIVATE_RANGES),
  );
}

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
