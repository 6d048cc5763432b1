import { timingSafeEqual } from 'node:crypto';
import { hashPartnerApiKey, type PartnerApiKey } from '@funnel/lead-store/partner-config';

/** Who an API key belongs to, as the partner API needs it. */
export interface PartnerIdentity {
  partnerId: string;
  affiliateId: string;
  ratePerMinute: number;
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
    const presented = hashPartnerApiKey(key);
    let found: PartnerApiKey | undefined;
    for (const candidate of this.keys) {
      if (timingSafeEqual(candidate.keySha256, presented) && !found) found = candidate;
    }
    return found
      ? { partnerId: found.partnerId, affiliateId: found.affiliateId, ratePerMinute: found.ratePerMinute }
      : undefined;
  }
}
