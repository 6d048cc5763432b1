import { createHash, randomBytes } from 'node:crypto';

/** A partner API key as `scripts/partner-key.mjs` makes one, and its `PARTNER_API_KEYS` entry. */
export function partnerKey(partnerId: string, affiliateId: string, ratePerMinute = 1000) {
  const key = `fpk_${randomBytes(24).toString('base64url')}`;
  const hash = createHash('sha256').update(key).digest('hex');
  return { key, entry: `${partnerId}:${affiliateId}:${hash}:${ratePerMinute}` };
}
