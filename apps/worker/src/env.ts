import * as z from 'zod';
import { parseEnv } from '@funnel/server-runtime/parse-env';
import {
  boolish,
  commaList,
  refuseInsecureWebhooksInProduction,
  SERVER_SECRET_SETTINGS,
  serverEnvFields,
} from '@funnel/server-runtime/env-fields';
import { LEAD_STORE_SECRET_SETTINGS, leadStoreEnvFields } from '@funnel/lead-store/env-fields';
import { PartnerWebhookSecretsSchema } from '@funnel/lead-store/partner-config';
import { readFileSync } from 'node:fs';
import { AffiliatePostbacksSchema } from '@funnel/contracts/postbacks';
import { readBuyersFile } from '@funnel/server-runtime/buyers-file';

/** A JSON document in the environment: parse errors read as a message on the key, not a stack. */
const jsonText = z.string().transform((text, ctx) => {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    ctx.addIssue({ code: 'custom', message: 'is not valid JSON' });
    return z.NEVER;
  }
});

const hostList = commaList.transform((hosts) => hosts.map((host) => host.toLowerCase()));

export const EnvSchema = z
  .object({
    ...serverEnvFields,
    ...leadStoreEnvFields,
    LENDER_NETWORK_URL: z.string().url().default('http://127.0.0.1:4010'),
    /** Sent as a bearer token when set. */
    LENDER_NETWORK_API_KEY: z.string().optional(),
    LENDER_CONNECT_TIMEOUT_MS: z.coerce.number().int().positive().default(3000),
    // The post may take a while; a ping must fit the 2 s poll cadence (a hung ping is retried at the next tick).
    LENDER_HEADERS_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
    LENDER_BODY_TIMEOUT_MS: z.coerce.number().int().positive().default(5000),
    LENDER_PING_TIMEOUT_MS: z.coerce.number().int().positive().default(1500),
    LENDER_CONNECTIONS: z.coerce.number().int().positive().default(64),
    /**
     * The largest answer read from a buyer or the lender network, bytes (default 1 MiB). A longer one is given
     * up while it streams in, never buffered, and its attempt ends as the `response_too_large` error.
     */
    UPSTREAM_RESPONSE_MAX_BYTES: z.coerce
      .number()
      .int()
      .positive()
      .default(1024 * 1024),
    POLL_INTERVAL_MS: z.coerce.number().int().positive().default(2000),
    WORKER_CONCURRENCY: z.coerce.number().int().positive().default(100),
    /** Redirect hosts that are partner offers rather than lenders ('Suitable program found' screen). */
    PARTNER_OFFER_HOSTS: hostList.default([]),
    /** Where a no-lender borrower is sent after 2 s, when configured. */
    NO_LENDER_FALLBACK_URL: z.string().url().optional(),
    /** How long a job may stay locked by a worker that stopped answering before another takes it over. */
    // A SIGKILLed worker's jobs come back within lock + stalled interval (~5-7.5 s), not 30-60 s.
    STALLED_INTERVAL_MS: z.coerce.number().int().positive().default(2500),
    /** How often the reconciler looks for leads in impossible states, and how late a pending lead may be. */
    RECONCILE_INTERVAL_MS: z.coerce.number().int().positive().default(5000),
    RECONCILE_DEADLINE_GRACE_MS: z.coerce.number().int().nonnegative().default(30000),
    /**
     * How often a worker looks for erasures not yet rewritten out of Redis's AOF and RDB files (docs/adr/0014):
     * at most one rewrite per interval across all workers. An erasure leaves the files within 3 intervals.
     */
    ERASURE_REWRITE_INTERVAL_MS: z.coerce.number().int().positive().default(300_000),
    LOCK_DURATION_MS: z.coerce.number().int().positive().default(5000),
    /**
     * The buyers file (docs/buyers.md): the buyer contracts the submission waterfall walks. Unset, the lender
     * network above is the only buyer, posted once, as before.
     */
    BUYERS_FILE: z.string().min(1).optional(),
    /**
     * With a system of record, how often a worker reads the buyers document's version besides the change
     * messages (ADR 0022): a change lost with its message still reaches every worker within this long.
     */
    BUYERS_POLL_MS: z.coerce.number().int().positive().max(60_000).default(2000),
    /** Where the worker's /healthz, /readyz and /metrics listen (0: a free port, logged at start). */
    WORKER_METRICS_PORT: z.coerce.number().int().nonnegative().default(9464),
    /** Brevo API v3 key; unset, mailing-list sync jobs are skipped. */
    BREVO_API_KEY: z.string().optional(),
    BREVO_API_URL: z.url().default('https://api.brevo.com/v3'),
    /** Comma-separated Brevo list ids every synced contact joins. */
    BREVO_LIST_IDS: commaList
      .transform((ids) => ids.map(Number))
      .pipe(z.array(z.number().int().positive()))
      .default([]),
    /** Where cross-sell records are POSTed; unset, forwarding is skipped. */
    CROSS_SELL_FORWARD_URL: z.url().optional(),
    /** Sent as `Authorization: Bearer` to the cross-sell endpoint when set. */
    CROSS_SELL_FORWARD_TOKEN: z.string().optional(),
    /** TrustedForm API key; unset, certificates are not retained. */
    TRUSTEDFORM_API_KEY: z.string().optional(),
    /** The only origin certificate URLs (and so our TrustedForm key) may go to. */
    TRUSTEDFORM_CERT_ORIGIN: z.url().default('https://cert.trustedform.com'),
    /**
     * Screening before any buyer (issue 41, ADR 0029): on by default. Each check runs when it can: the
     * disposable-address list always, the Do Not Call registry with DATABASE_URL (once `npm run dnc:load` has
     * loaded a copy), the email's mail exchangers with SCREENING_EMAIL_DNS, the litigator list with its URL and key.
     */
    SCREENING: boolish.default(true),
    /** The most screening waits for any one check; a check past it counts as not done (ADR 0029's fail rules). */
    SCREENING_TIMEOUT_MS: z.coerce.number().int().positive().max(10_000).default(300),
    /**
     * The most leads one public address sends in an hour before its next ones are flagged `ip_velocity`
     * (screening, ADR 0030); 0 turns the check off.
     */
    SCREENING_IP_MAX_PER_HOUR: z.coerce.number().int().min(0).max(10_000).default(3),
    /**
     * The resolvers asked for an email's mail exchangers: `off` (the default: no lookup), `system` (the host's),
     * or a comma list of `host` / `host:port`.
     */
    SCREENING_EMAIL_DNS: z
      .string()
      .default('off')
      .transform((value) =>
        value === 'off' ? undefined : value === 'system' ? [] : value.split(',').map((s) => s.trim()),
      ),
    /** The litigator list (Blacklist Alliance's API, or the sandbox's `/blacklist-alliance`); unset, not checked. */
    LITIGATOR_LIST_URL: z.url().optional(),
    LITIGATOR_LIST_API_KEY: z.string().optional(),
    /**
     * `buyerId:secret`, comma-separated (the Standard Webhooks form, as PARTNER_WEBHOOK_SECRETS): the opt-out
     * notices to each buyer's `optOutUrl` are signed with its secret (issue 41). A buyer without one is not told.
     */
    BUYER_WEBHOOK_SECRETS: PartnerWebhookSecretsSchema,
    /** Hours after the final outcome before SSN, bank and licence numbers are purged. */
    SENSITIVE_PURGE_GRACE_HOURS: z.coerce.number().nonnegative().default(24),
    /**
     * Affiliate conversion postbacks, as JSON `{ "<affiliate id>": { "url", "events"?, "payout"? } }`
     * (docs/api.md, "Affiliate postbacks"); `AFFILIATE_POSTBACKS_FILE` names a file holding the same instead.
     */
    AFFILIATE_POSTBACKS: jsonText.pipe(AffiliatePostbacksSchema).optional(),
    AFFILIATE_POSTBACKS_FILE: z.string().min(1).optional(),
    /** How long each lead's postback attempts stay readable by operators. */
    POSTBACK_LOG_DAYS: z.coerce.number().positive().default(90),
  })
  .transform((env, ctx) => {
    let postbacks = env.AFFILIATE_POSTBACKS ?? {};
    if (env.AFFILIATE_POSTBACKS_FILE) {
      const text = readOptional(env.AFFILIATE_POSTBACKS_FILE);
      const parsed = text === undefined ? undefined : jsonText.pipe(AffiliatePostbacksSchema).safeParse(text);
      if (parsed?.success) postbacks = { ...postbacks, ...parsed.data };
      else {
        ctx.addIssue({
          code: 'custom',
          path: ['AFFILIATE_POSTBACKS_FILE'],
          message: parsed
            ? parsed.error.issues.map((i) => `${i.path.join('.')} ${i.message}`).join('; ')
            : 'cannot be read',
        });
      }
    }
    const buyers = env.BUYERS_FILE ? readBuyersFile(env.BUYERS_FILE, ctx) : undefined;
    return { ...env, AFFILIATE_POSTBACKS: postbacks, BUYERS: buyers };
  })
  .superRefine((env, ctx) => {
    // Postbacks go over https to public addresses; plain http only where webhooks may (local runs and tests).
    for (const [affiliate, postback] of Object.entries(env.AFFILIATE_POSTBACKS)) {
      if (!env.PARTNER_WEBHOOK_INSECURE && !postback.url.startsWith('https://')) {
        ctx.addIssue({
          code: 'custom',
          path: ['AFFILIATE_POSTBACKS', affiliate, 'url'],
          message: 'must be an https URL',
        });
      }
    }
    refuseInsecureWebhooksInProduction(env, ctx);
    if (env.BREVO_API_KEY && env.BREVO_LIST_IDS.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['BREVO_LIST_IDS'],
        message: 'required when BREVO_API_KEY is set',
      });
    }
    // The TrustedForm key travels as basic auth: never over plain HTTP outside local runs and tests.
    if (env.NODE_ENV === 'production' && !env.TRUSTEDFORM_CERT_ORIGIN.startsWith('https://')) {
      ctx.addIssue({
        code: 'custom',
        path: ['TRUSTEDFORM_CERT_ORIGIN'],
        message: 'must be https in production',
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

/** The file's text, or undefined when it cannot be read. */
function readOptional(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined;
  }
}

/** Parses the environment once at start; fails listing every bad key. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  return parseEnv(EnvSchema, source, {
    fromFiles: [
      ...SERVER_SECRET_SETTINGS,
      ...LEAD_STORE_SECRET_SETTINGS,
      'LENDER_NETWORK_API_KEY',
      'BREVO_API_KEY',
      'CROSS_SELL_FORWARD_TOKEN',
      'TRUSTEDFORM_API_KEY',
      'LITIGATOR_LIST_API_KEY',
      'BUYER_WEBHOOK_SECRETS',
    ],
  });
}
