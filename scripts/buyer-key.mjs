// Issues a buyer API key (returns and conversions, ADR 0020) and the secret its opt-out notices are signed with
// (issue 41), and prints their configuration entries.
//
//   node scripts/buyer-key.mjs <buyerId> [requestsPerMinute=60]
//
// The key is printed once and never stored: BUYER_API_KEYS holds only its SHA-256. Give the key to the buyer
// over a secure channel. The output is valid shell: `eval "$(node scripts/buyer-key.mjs prime)"`.
import { createHash, randomBytes } from 'node:crypto';

// The same rules the BFF applies when it parses BUYER_API_KEYS (apps/bff/src/buyer-api/buyer-keys.ts).
const BUYER_ID = /^[a-z0-9][a-z0-9-]{0,39}$/;
const RATE = /^[1-9]\d{0,5}$/;

const [buyerId, rate = '60'] = process.argv.slice(2);
if (!buyerId || !BUYER_ID.test(buyerId) || !RATE.test(rate)) {
  console.error('usage: node scripts/buyer-key.mjs <buyerId> [requestsPerMinute=60]');
  console.error("  buyerId: the buyer's id in the buyers file (a-z, 0-9, -; 1-40)");
  process.exit(2);
}

// 256 random bits: a fast hash is then enough to store it, there is no dictionary to guess from.
const apiKey = `fbk_${randomBytes(32).toString('base64url')}`;
const keySha256 = createHash('sha256').update(apiKey).digest('hex');

console.log(`# Buyer "${buyerId}": the API key, shown only now. We keep only its SHA-256.`);
console.log(`BUYER_API_KEY=${apiKey}`);
console.log('# Append to BUYER_API_KEYS (BFF), comma-separated with the entries already there:');
console.log(`BUYER_API_KEYS_ENTRY=${buyerId}:${keySha256}:${rate}`);
// A Standard Webhooks secret: the buyer verifies our notices with it, so it is shared with the buyer as it is.
const webhookSecret = `whsec_${randomBytes(32).toString('base64')}`;
console.log('# Append to BUYER_WEBHOOK_SECRETS (worker); give the secret to the buyer with the key:');
console.log(`BUYER_WEBHOOK_SECRET=${webhookSecret}`);
console.log(`BUYER_WEBHOOK_SECRETS_ENTRY=${buyerId}:${webhookSecret}`);
