/**
 * The partner webhook signature, modelled on Stripe's scheme. Node-only (node:crypto): the worker signs with it,
 * integrators and tests verify with it; the web app never imports it.
 *
 * Header: `X-Funnel-Signature: t=<unix seconds>,v1=<hex>[,v1=<hex>…]` where each `v1` is
 * HMAC-SHA256(secret, `${t}.${raw request body}`) in lower-case hex, one per webhook secret configured for the
 * partner (several while a secret is being rotated). A receiver recomputes the HMAC over the raw body exactly as
 * received, compares it in constant time with any `v1`, and refuses a `t` older (or newer) than its tolerance,
 * so a captured delivery cannot be replayed later.
 */
import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header name as sent. Node lower-cases incoming header names: read `x-funnel-signature`. */
export const WEBHOOK_SIGNATURE_HEADER = 'X-Funnel-Signature';
/** The tolerance we suggest to receivers. */
export const DEFAULT_WEBHOOK_TOLERANCE_SECONDS = 300;

const SCHEME = 'v1';

function hmacHex(secret: string, timestamp: number, body: string | Buffer): string {
  return createHmac('sha256', secret).update(`${timestamp}.`).update(body).digest('hex');
}

/**
 * The header value for `body` sent at `timestamp` (unix seconds), signed with every secret in `secrets`.
 *
 * @param secrets the partner's webhook secrets, current first; at least one.
 */
export function signWebhookPayload(
  secrets: readonly string[],
  body: string | Buffer,
  timestamp: number = Math.floor(Date.now() / 1000),
): string {
  if (secrets.length === 0) throw new Error('a webhook needs at least one secret to be signed');
  return [`t=${timestamp}`, ...secrets.map((secret) => `${SCHEME}=${hmacHex(secret, timestamp, body)}`)].join(
    ',',
  );
}

/**
 * True when `header` carries a `v1` signature of `body` under `secret` and its timestamp is within
 * `toleranceSeconds` of `nowMs`. Pass the raw body exactly as received: a re-serialized JSON differs.
 *
 * @param secret the webhook secret we gave you.
 * @param header the `X-Funnel-Signature` value (undefined or malformed: false).
 * @param body the raw request body.
 * @param toleranceSeconds how old (or early) a delivery may be; 300 is a good default.
 * @param nowMs the receiver's clock, for tests.
 */
export function verifyWebhookSignature(
  secret: string,
  header: string | undefined,
  body: string | Buffer,
  toleranceSeconds: number = DEFAULT_WEBHOOK_TOLERANCE_SECONDS,
  nowMs: number = Date.now(),
): boolean {
  if (!header) return false;
  let timestamp: number | undefined;
  const signatures: Buffer[] = [];
  for (const part of header.split(',')) {
    const [key, value] = part.trim().split('=', 2);
    if (key === 't' && value !== undefined && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    else if (key === SCHEME && value !== undefined && /^[a-f0-9]{64}$/.test(value)) {
      signatures.push(Buffer.from(value, 'hex'));
    }
  }
  if (timestamp === undefined || signatures.length === 0) return false;
  if (Math.abs(nowMs / 1000 - timestamp) > toleranceSeconds) return false;
  const expected = Buffer.from(hmacHex(secret, timestamp, body), 'hex');
  // Compare against every candidate so the time taken does not tell which one matched.
  let matched = false;
  for (const signature of signatures) matched = timingSafeEqual(signature, expected) || matched;
  return matched;
}
