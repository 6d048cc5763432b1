import * as z from 'zod';
import { parseEnv } from '@funnel/server-runtime/parse-env';
import {
  boolish,
  commaList,
  refuseInsecureWebhooksInProduction,
  SERVER_SECRET_SETTINGS,
  serverEnvFields,
  splitCommaList,
} from '@funnel/server-runtime/env-fields';
import { LEAD_STORE_SECRET_SETTINGS, leadStoreEnvFields } from '@funnel/lead-store/env-fields';
import { PartnerApiKeysSchema } from '@funnel/lead-store/partner-config';
import { readBuyersFile } from '@funnel/server-runtime/buyers-file';
import { BuyerApiKeysSchema } from './buyer-api/buyer-keys.js';
import {
  BrandPhoneSchema,
  MailingAddressSchema,
  REQUIRED_BRAND_SETTINGS,
  SocialLinksSchema,
} from './brand/brand-links.js';

/** Fictitious partner names, shown until an operator configures the real ones with PARTNER_NAMES. */
const DEFAULT_PARTNER_NAMES = [
  'Northwind Lending Group',
  'Bluepine Credit Partners',
  'Maple Ridge Loan Services',
  'Silverbrook Financial Network',
];

/**
 * Whom the BFF believes about the client's address (X-Forwarded-For): `false` (nobody: the BFF faces clients),
 * `true` (any peer: only where nothing else can reach the BFF), or the proxy's addresses / CIDR ranges,
 * comma-separated, so exactly that hop is trusted (docker-compose: the proxy's fixed address).
 */
const trustProxy = z.union([
  boolish,
  commaList
    .pipe(
      z
        .array(
          z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()], {
            error: 'true, false, or comma-separated proxy addresses (IP or CIDR)',
          }),
        )
        .min(1),
    )
    .transform((addresses) => addresses.join(',')),
]);

/** Unset or empty (compose passes an unset variable as ''): the built-in list. */
const partnerNames = z
  .string()
  .optional()
  .transform((value) => {
    const names = splitCommaList(value ?? '');
    return names.length > 0 ? names : DEFAULT_PARTNER_NAMES;
  });

export const EnvSchema = z
  .object({
    ...serverEnvFields,
    HOST: z.string().default('0.0.0.0'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    TRUST_PROXY: trustProxy.default(false),
    REFERENCE_DATA_DIR: z.string().optional(),
    ...leadStoreEnvFields,
    COOKIE_SECRETS: commaList.pipe(
      z.array(z.string().min(32, 'each cookie secret needs 32+ characters')).min(1),
    ),
    COOKIE_SECURE: boolish.default(true),
    /** bull-board at /admin/queues lets operators retry, remove and pause jobs only when true. */
    ADMIN_QUEUES_WRITABLE: boolish.default(false),
    LEAD_TTL_DAYS: z.coerce.number().positive().default(30),
    /**
     * A borrower (same SSN, or same email and birth date) submitted again within this many days is not posted;
     * 0 turns duplicate detection off (load tests and browser tests that submit one fictitious borrower often).
     */
    DUPLICATE_WINDOW_DAYS: z.coerce.number().nonnegative().default(30),
    BUSINESS_TIME_ZONE: z.string().default('America/New_York'),
    RATE_LIMIT_MAX: z.coerce.number().int().positive().default(60),
    RATE_LIMIT_WINDOW_MS: z.coerce.number().int().positive().default(60_000),
    /** Off only to measure what the limiter costs (bench/); every rate limit, partners' included, stops. */
    RATE_LIMIT_ENABLED: boolish.default(true),
    ROUTING_LOOKUP_URL: z.string().url().optional(),
    ADDRESS_SUGGEST_URL: z.string().url().optional(),
    WEB_DIST_DIR: z.string().optional(),
    PARTNER_NAMES: partnerNames,
    PARTNER_SOURCE_URL: z.string().url().optional(),
    DECISION_DEADLINE_MS: z.coerce.number().int().positive().default(310_000),
    SSE_HEARTBEAT_MS: z.coerce.number().int().positive().default(15_000),
    /**
     * Machine clients only: the bearer token of the operator endpoints (/api/v1/admin/*), with every role and
     * audited as `api-token`. People sign in to the console with their own accounts (ADR 0021).
     */
    ADMIN_API_TOKEN: z.string().min(32, 'the admin API token needs 32+ characters').optional(),
    /** A console session ends after this long without a request (ADR 0021). */
    OPERATOR_SESSION_IDLE_MINUTES: z.coerce
      .number()
      .positive()
      .max(24 * 60)
      .default(30),
    /** A console session ends this long after sign-in, however busy. */
    OPERATOR_SESSION_HOURS: z.coerce
      .number()
      .positive()
      .max(7 * 24)
      .default(8),
    /**
     * The roles that must enrol a TOTP second factor before they use the console (ADR 0023): comma-separated, or
     * `none`. A local sign-in of such an account without one opens only the Security page.
     */
    OPERATOR_SECOND_FACTOR_ROLES: z
      .string()
      .default('admin,manager')
      .transform((list) => (list.trim() === 'none' ? [] : splitCommaList(list)))
      .pipe(z.array(z.enum(['viewer', 'manager', 'admin'], 'viewer, manager, admin or none'))),
    /** The issuer an authenticator app shows beside an operator's TOTP code. */
    OPERATOR_TOTP_ISSUER: z.string().trim().min(1).max(64).default('Loan funnel console'),
    /** The organisation's OpenID Connect provider (its issuer URL); unset, the console offers local accounts only. */
    OIDC_ISSUER_URL: z.url().optional(),
    OIDC_CLIENT_ID: z.string().min(1).optional(),
    OIDC_CLIENT_SECRET: z.string().min(1).optional(),
    /** This site's callback as registered with the provider: `https://<site>/api/v1/admin/oidc/callback`. */
    OIDC_REDIRECT_URL: z.url().optional(),
    /** The claim listing the person's groups. */
    OIDC_ROLE_CLAIM: z.string().min(1).default('groups'),
    /** `group=role`, comma-separated (roles: viewer, manager, admin); someone in no listed group is refused. */
    OIDC_ROLE_MAP: commaList
      .pipe(
        z.array(
          z
            .string()
            .regex(/^[^=]+=(viewer|manager|admin)$/, 'group=viewer|manager|admin')
            .transform((pair) => pair.split('=') as [string, 'viewer' | 'manager' | 'admin']),
        ),
      )
      .default([]),
    /** The provider's name on the console's button, "Sign in with <name>"; unset, "your organisation's account". */
    OIDC_PROVIDER_NAME: z.string().trim().min(1).max(40).optional(),
    /**
     * Whether the provider's groups also set the role of a local account linked to the provider (ADR 0023). Off,
     * only accounts the provider created follow its groups; an admin's role for a local account stands.
     */
    OIDC_SYNC_LOCAL_ROLES: boolish.default(false),
    /** A plain-HTTP provider: tests and local development only, refused in production. */
    OIDC_ALLOW_HTTP: boolish.default(false),
    /** Version of the partner list shown; unset, a hash of PARTNER_NAMES (bump it when the partner source changes). */
    PARTNER_LIST_VERSION: z.string().max(64).optional(),
    /** Load the TrustedForm certification script on the consent pages (and allow its hosts in the CSP). */
    TRUSTEDFORM_ENABLED: boolish.default(false),
    /** Load the Jornaya LeadiD script (campaign JORNAYA_CAMPAIGN_ID) and allow its hosts in the CSP. */
    JORNAYA_ENABLED: boolish.default(false),
    JORNAYA_CAMPAIGN_ID: z
      .string()
      .regex(/^[A-Za-z0-9-]{1,64}$/, 'a Jornaya campaign key: letters, digits and dashes')
      .optional(),
    /** Partner API keys (hashed): `partnerId:affiliateId:sha256hex:ratePerMinute`, comma-separated. */
    PARTNER_API_KEYS: PartnerApiKeysSchema,
    /** Buyer API keys (hashed): `buyerId:sha256hex:ratePerMinute`, comma-separated (returns and conversions). */
    BUYER_API_KEYS: BuyerApiKeysSchema,
    /** The worker's buyers file: the BFF reads each buyer's return terms from it (ADR 0020). */
    BUYERS_FILE: z.string().min(1).optional(),
    /**
     * How borrowers reach the business (Contact Us, the privacy policy). Required in production; elsewhere,
     * unset, the site shows sample details and says so.
     */
    BRAND_CONTACT_EMAIL: z.email().optional(),
    /** Privacy requests; unset, BRAND_CONTACT_EMAIL. */
    BRAND_PRIVACY_EMAIL: z.email().optional(),
    BRAND_CONTACT_PHONE: BrandPhoneSchema.optional(),
    BRAND_CONTACT_HOURS: z.string().trim().min(1).max(200).optional(),
    BRAND_MAILING_ADDRESS: MailingAddressSchema.optional(),
    /** The blog the header links to; unset, no Blog link. */
    BRAND_BLOG_URL: z.url({ protocol: /^https?$/ }).optional(),
    /** `network=https://…`, comma-separated; unset, no social icons. */
    BRAND_SOCIAL_LINKS: SocialLinksSchema.optional(),
  })
  // The buyers' return terms, read from the worker's buyers file.
  .transform((env, ctx) => {
    const buyers = env.BUYERS_FILE ? readBuyersFile(env.BUYERS_FILE, ctx) : undefined;
    return { ...env, BUYERS: buyers };
  })
  .superRefine((env, ctx) => {
    if (env.NODE_ENV !== 'production') return;
    for (const name of REQUIRED_BRAND_SETTINGS) {
      if (env[name] === undefined) {
        ctx.addIssue({
          code: 'custom',
          path: [name],
          message: 'required in production: the contact details borrowers see on Contact Us',
        });
      }
    }
  })
  .superRefine(refuseInsecureWebhooksInProduction)
  .superRefine((env, ctx) => {
    if (!env.OIDC_ISSUER_URL) return;
    for (const name of ['OIDC_CLIENT_ID', 'OIDC_CLIENT_SECRET', 'OIDC_REDIRECT_URL'] as const) {
      if (!env[name])
        ctx.addIssue({ code: 'custom', path: [name], message: 'required when OIDC_ISSUER_URL is set' });
    }
    if (env.OIDC_ROLE_MAP.length === 0) {
      ctx.addIssue({
        code: 'custom',
        path: ['OIDC_ROLE_MAP'],
        message: 'required when OIDC_ISSUER_URL is set',
      });
    }
    if (env.OIDC_ALLOW_HTTP && env.NODE_ENV === 'production') {
      ctx.addIssue({ code: 'custom', path: ['OIDC_ALLOW_HTTP'], message: 'not allowed in production' });
    }
  })
  .superRefine((env, ctx) => {
    if (env.JORNAYA_ENABLED && !env.JORNAYA_CAMPAIGN_ID) {
      ctx.addIssue({
        code: 'custom',
        path: ['JORNAYA_CAMPAIGN_ID'],
        message: 'required when JORNAYA_ENABLED is set',
      });
    }
  });

export type Env = z.infer<typeof EnvSchema>;

/** Parses the environment once at start; fails listing every bad key. */
export function loadEnv(source: NodeJS.ProcessEnv = process.env): Env {
  return parseEnv(EnvSchema, source, {
    fromFiles: [
      ...SERVER_SECRET_SETTINGS,
      ...LEAD_STORE_SECRET_SETTINGS,
      'COOKIE_SECRETS',
      'ADMIN_API_TOKEN',
      'OIDC_CLIENT_SECRET',
      'PARTNER_API_KEYS',
      'BUYER_API_KEYS',
    ],
  });
}
