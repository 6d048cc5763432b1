import type { Buyer, BuyersFile } from '@funnel/contracts/buyers';
import type { BuyerConfig } from '@funnel/db/buyer-config';

/** What a proposed document does to the buyers' addresses and credentials, against the running version. */
export interface CredentialReview {
  /** The document with each kept credential put back (a change leaves `apiKey` out to keep it). */
  file: BuyersFile;
  /** Buyers added, or whose `baseUrl` changed: their address is set by this change. */
  addressed: Buyer[];
  /** Buyers given a credential by this change. */
  keyed: string[];
  /** Buyers whose credential was dropped by this change: moved to another origin without a new one. */
  dropped: string[];
  /** Every buyer left without the credential it had for another origin, this change's drops included. */
  keysNeeded: string[];
}

function originOf(url: string): string {
  return new URL(url).origin;
}

/**
 * A buyer's credential is bound to its origin (ADR 0024): a change that leaves `apiKey` out keeps the buyer's
 * credential only while its `baseUrl` stays on the same origin (scheme, host and port). Moved elsewhere, the
 * credential is dropped, so it is never sent to an address other than the one it was given for; the buyer then
 * needs its key (held by the workers) until a credential is entered again.
 */
export function reviewCredentials(current: BuyerConfig | undefined, proposed: BuyersFile): CredentialReview {
  const before = new Map(current?.file.buyers.map((buyer) => [buyer.id, buyer]));
  const addressed: Buyer[] = [];
  const keyed: string[] = [];
  const dropped: string[] = [];
  const buyers = proposed.buyers.map((buyer): Buyer => {
    const old = before.get(buyer.id);
    if (!old || old.baseUrl !== buyer.baseUrl) addressed.push(buyer);
    if (buyer.apiKey !== undefined) {
      if (buyer.apiKey !== old?.apiKey) keyed.push(buyer.id);
      return buyer;
    }
    if (old?.apiKey === undefined) return buyer;
    if (originOf(old.baseUrl) === originOf(buyer.baseUrl)) return { ...buyer, apiKey: old.apiKey };
    dropped.push(buyer.id);
    return buyer;
  });
  const stillNeeded = new Set(current?.keysNeeded ?? []);
  const keysNeeded = buyers
    .filter(
      (buyer) => buyer.apiKey === undefined && (stillNeeded.has(buyer.id) || dropped.includes(buyer.id)),
    )
    .map((buyer) => buyer.id);
  return { file: { ...proposed, buyers }, addressed, keyed, dropped, keysNeeded };
}
