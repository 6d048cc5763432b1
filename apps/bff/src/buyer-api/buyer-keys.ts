import * as z from 'zod';
import { BuyerIdSchema } from '@funnel/contracts/buyers';
import { keyHashProblem } from '@funnel/lead-store/partner-config';
import { splitCommaList } from '@funnel/server-runtime/env-fields';

/** One buyer API key as configured (ADR 0020): only its SHA-256 is known; the key was shown to the buyer once. */
export interface BuyerApiKey {
  /** The buyer's id in the buyers file: its returns and conversions are of the leads sold to that id. */
  buyerId: string;
  keySha256: Buffer;
  ratePerMinute: number;
}

/**
 * `BUYER_API_KEYS`: comma-separated `buyerId:sha256hex:ratePerMinute` entries, like the partner API's keys (ADR
 * 0006); `scripts/buyer-key.mjs` prints one. A buyer may hold several keys (rotation). Unset or
 * empty: the buyer API answers 401 to all. Errors name the entry by position, never echo it.
 */
export const BuyerApiKeysSchema = z
  .string()
  .optional()
  .transform((value, ctx): BuyerApiKey[] => {
    const keys: BuyerApiKey[] = [];
    const seen = new Set<string>();
    splitCommaList(value ?? '').forEach((entry, index) => {
      const [buyerId = '', hash = '', rate = '', ...rest] = entry.split(':');
      const problem =
        rest.length > 0 || !BuyerIdSchema.safeParse(buyerId).success
          ? 'buyer id: the lower-case slug of the buyers file'
          : keyHashProblem(hash, rate, seen);
      if (problem) {
        const message = `entry ${index + 1} is not buyerId:sha256hex:ratePerMinute (${problem})`;
        ctx.issues.push({ code: 'custom', input: `entry ${index + 1}`, message });
        return;
      }
      seen.add(hash);
      keys.push({ buyerId, keySha256: Buffer.from(hash, 'hex'), ratePerMinute: Number(rate) });
    });
    return keys;
  });
