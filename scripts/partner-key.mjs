// Issues a partner API key and a webhook secret, and prints the configuration entries for them.
//
//   node scripts/partner-key.mjs <partnerId> <affiliateId> [requestsPerMinute=60]
//
// The key is printed once and never stored: PARTNER_API_KEYS holds only its SHA-256. Give the key and the
// webhook secret to the partner over a secure channel. The output is also valid shell, so
// `eval "$(node scripts/partner-key.mjs acme aff-310)"` sets the variables in a local session.
import { createHash, randomBytes } from 'node:crypto';

// The same rules the apps apply when they parse PARTNER_API_KEYS (packages/lead-store/src/partner-config.ts).
const PARTNER_ID = /^[A-Za-z0-9][A-Za-z0-9_-]{0,63}$/;
const AFFILIATE_ID = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;
const RATE = /^[1-9]\d{0,5}$/;

const [partnerId, affiliateId, rate = '60'] = process.argv.slice(2);
if (
  !partnerId ||
  !affiliateId ||
  !PARTNER_ID.test(partnerId) ||
  !AFFILIATE_ID.test(affiliateId) ||
  !RATE.test(rate)
) {
  console.error('usage: node scripts/partner-key.mjs <partnerId> <affiliateId> [requestsPerMinute=60]');
  console.error(
    '  partnerId: letters, digits, - and _; affiliateId: letters, digits, ., - and _ (1-64 each)',
  );
  process.exit(2);
}

// 256 random bits: a fast hash is then enough to store it, there is no dictionary to guess from.
const apiKey = `fpk_${randomBytes(32).toString('base64url')}`;
const keySha256 = createHash('sha256').update(apiKey).digest('hex');
// A Standard Webhooks secret (whsec_ + base64 of 32 random bytes): every Standard Webhooks library reads it.
const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;

console.log(`# Partner "${partnerId}": the API key, shown only now. We keep only its SHA-256.`);
console.log(`PARTNER_API_KEY=${apiKey}`);
console.log('# Append to PARTNER_API_KEYS (BFF), comma-separated with the entries already there:');
console.log(`PARTNER_API_KEYS_ENTRY=${partnerId}:${affiliateId}:${keySha256}:${rate}`);
console.log(
  '# Webhook secret for the partner to verify webhook-signature (Standard Webhooks); append the entry to',
);
console.log(
  '# PARTNER_WEBHOOK_SECRETS in the BFF and the worker (only needed if the partner wants webhooks):',
);
console.log(`PARTNER_WEBHOOK_SECRET=${webhookSecret}`);
console.log(`PARTNER_WEBHOOK_SECRETS_ENTRY=${partnerId}:${webhookSecret}`);
