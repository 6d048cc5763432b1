import { createHash } from 'node:crypto';
import * as z from 'zod';
import { splitCommaList } from '@funnel/server-runtime/env-fields';

/**
 * The configuration of partner (integrator) API keys and webhook secrets, parsed the same way by the BFF (which
 * authenticates keys and accepts webhook addresses) and the worker (which signs webhooks). Both are environment
 * variables holding comma-separated entries; `scripts/partner-key.mjs` prints ready-made ones.
 */

/** One API key as configured: only its SHA-256 is known to us; the key itself was shown to the partner once. */
export interface PartnerApiKey {
  /** Our name for the partner; scopes their leads, idempotency keys and rate limit. */
  partnerId: string;
  /** Written into each lead's tracking as `affiliateId` (the lender payload's `tPar[affiliateId]`). */
  affiliateId: string;
  /** SHA-256 of the key, 32 bytes. */
  keySha256: Buffer;
  /** Requests per minute the partner may make across the partner API. */
  ratePerMinute: number;
}

const PARTNER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const AFFILIATE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const SHA256_HEX = /^[a-f0-9]{64}$/;
const MIN_SECRET_LENGTH = 32;

/**
 * What is wrong with an API key entry's hash and rate (`PARTNER_API_KEYS`, and the buyer API's
 * `BUYER_API_KEYS`), or undefined.
 */
export function keyHashProblem(hash: string, rate: string, seen: ReadonlySet<string>): string | undefined {
  if (!SHA256_HEX.test(hash)) return 'key hash: 64 lower-case hex digits (SHA-256 of the key)';
  if (!/^[1-9]\d{0,5}$/.test(rate)) return 'rate: a whole number of requests per minute';
  return seen.has(hash) ? 'this key hash is listed twice' : undefined;
}

/** SHA-256 of a presented API key, as configured in `PARTNER_API_KEYS`. */
export function hashPartnerApiKey(key: string): Buffer {
  return createHash('sha256').update(key, 'utf8').digest();
}

/**
 * `PARTNER_API_KEYS`: comma-separated `partnerId:affiliateId:sha256hex:ratePerMinute` entries. A partner may
 * have several keys (rotation); each key hash appears once. Unset or empty: the partner API answers 401 to all.
 * Errors name the entry by position, never echo it.
 */
export const PartnerApiKeysSchema = z
  .string()
  .optional()
  .transform((value, ctx): PartnerApiKey[] => {
    const keys: PartnerApiKey[] = [];
    const seen = new Set<string>();
    splitCommaList(value ?? '').forEach((entry, index) => {
      const [partnerId = '', affiliateId = '', hash = '', rate = '', ...rest] = entry.split(':');
      const problem =
        rest.length > 0 || !PARTNER_ID.test(partnerId)
          ? 'partner id: letters, digits, - and _ (1–64)'
          : !AFFILIATE_ID.test(affiliateId)
            ? 'affiliate id: letters, digits, ., - and _ (1–64)'
            : keyHashProblem(hash, rate, seen);
      if (problem) {
        ctx.issues.push({
          code: 'custom',
          input: `entry ${index + 1}`,
          message: `entry ${index + 1} is not partnerId:affiliateId:sha256hex:ratePerMinute (${problem})`,
        });
        return;
      }
      seen.add(hash);
      keys.push({
        partnerId,
        affiliateId,
        keySha256: Buffer.from(hash, 'hex'),
        ratePerMinute: Number(rate),
      });
    });
    return keys;
  });

/**
 * A Standard Webhooks secret: base64 (of 24+ bytes), optionally prefixed `whsec_`, as every Standard Webhooks
 * library reads it (`scripts/partner-key.mjs` issues `whsec_` and 64 hex digits, which is base64 too).
 */
const STANDARD_WEBHOOK_SECRET = /^(?:whsec_)?(?:[A-Za-z0-9+/]{4})+(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/**
 * `PARTNER_WEBHOOK_SECRETS`: comma-separated `partnerId:secret` entries (secrets of 32+ characters, no commas,
 * base64 with an optional `whsec_` prefix: the Standard Webhooks form).
 * A partner listed twice has two secrets during a rotation: webhooks carry a signature under each, current
 * (first listed) first. Unset or empty: no partner gets webhooks.
 */
export const PartnerWebhookSecretsSchema = z
  .string()
  .optional()
  .transform((value, ctx): ReadonlyMap<string, readonly string[]> => {
    const secrets = new Map<string, string[]>();
    splitCommaList(value ?? '').forEach((entry, index) => {
      const separator = entry.indexOf(':');
      const partnerId = entry.slice(0, Math.max(0, separator));
      const secret = entry.slice(separator + 1);
      if (
        separator < 0 ||
        !PARTNER_ID.test(partnerId) ||
        secret.length < MIN_SECRET_LENGTH ||
        !STANDARD_WEBHOOK_SECRET.test(secret)
      ) {
        ctx.issues.push({
          code: 'custom',
          input: `entry ${index + 1}`,
          message:
            `entry ${index + 1} is not partnerId:secret with a secret of ${MIN_SECRET_LENGTH}+ characters in ` +
            'base64 (optionally prefixed whsec_)',
        });
        return;
      }
      secrets.set(partnerId, [...(secrets.get(partnerId) ?? []), secret]);
    });
    return secrets;
  });
export type PartnerWebhookSecrets = z.output<typeof PartnerWebhookSecretsSchema>;
