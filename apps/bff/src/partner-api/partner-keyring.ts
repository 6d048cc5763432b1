import { timingSafeEqual } from 'node:crypto';
import { hashPartnerApiKey, type PartnerApiKey } from '@funnel/lead-store/partner-config';

/** Who an API key belongs to, as the partner API needs it. */
export interface PartnerIdentity {
  partnerId: string;
  affiliateId: string;
  ratePerMinute: number;
}

/**
 * The configured key whose SHA-256 is that of `presented`, compared with every configured hash in constant time,
 * whichever matches, so timing reveals neither a key nor its position (the partner and the buyer APIs' keys).
 */
export function findHashedKey<Key extends { keySha256: Buffer }>(
  keys: readonly Key[],
  presented: string,
): Key | undefined {
  const hash = hashPartnerApiKey(presented);
  let found: Key | undefined;
  for (const candidate of keys) {
    if (timingSafeEqual(candidate.keySha256, hash) && !found) found = candidate;
  }
  return found;
}

/**
 * The configured partner API keys, known only by their SHA-256. A presented key is hashed and compared with
 * every configured hash in constant time, whichever matches, so timing reveals neither a key nor its position.
 * API keys are long random strings, so a fast hash is enough: there is nothing to guess a dictionary from.
 */
export class PartnerKeyring {
  constructor(private readonly keys: readonly PartnerApiKey[]) {}

  /** The partner holding `key`, or undefined for an unknown key. */
  identify(key: string): PartnerIdentity | undefined {
    const found = findHashedKey(this.keys, key);
    return found
      ? { partnerId: found.partnerId, affiliateId: found.affiliateId, ratePerMinute: found.ratePerMinute }
      : undefined;
  }
}
