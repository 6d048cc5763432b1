import type { Buyer } from '@funnel/contracts/buyers';
import type { MappedFieldError } from '@funnel/contracts/buyer-field-errors';
import type { LeadRecord } from '@funnel/lead-store/lead-store';
import type { Bid, PingFields } from '@funnel/contracts/ping-post-network';
import type { AddressAllowList } from '@funnel/server-runtime/network-address';

/** A ping-post buyer's bid, with the fields it was made on: the post sends those exactly, never rebuilt. */
export interface HeldBid extends Bid {
  pinged: PingFields;
}

/** One attempt at one buyer: its own idempotency key, its price floor (if the protocol has one) and its time. */
export interface AttemptRequest {
  key: string;
  floor: number | undefined;
  budgetMs: number;
  /** ping-post in an auction: the bid won in the ping round, posted as is (no second ping). */
  bid?: HeldBid | undefined;
}

/** Where a pending attempt is asked again (lead-service). */
export interface PendingRef {
  upstreamLeadId: string;
  checkKey: string;
}

/** How a buyer answered an attempt. Transport failures are thrown as `RetryableLenderError` (with a `kind`). */
export type AttemptAnswer =
  /** Without `redirectUrl` when the buyer sold without an address (the lender contacts the borrower). */
  | { kind: 'sold'; price: number; redirectUrl?: string; upstreamLeadId?: string }
  | { kind: 'rejected'; rejectUrl?: string; fieldErrors: MappedFieldError[] }
  | { kind: 'pending'; pending: PendingRef }
  /** The buyer refused the lead's fields: lower floors at this buyer will not change that. */
  | { kind: 'invalid'; fieldErrors: MappedFieldError[] };

/** One protocol, spoken to one buyer. */
export interface BuyerAdapter {
  readonly buyer: Buyer;
  post(lead: LeadRecord, attempt: AttemptRequest): Promise<AttemptAnswer>;
  /** Asks again about a pending attempt; only protocols that answer pending implement it. */
  check(lead: LeadRecord, pending: PendingRef, budgetMs: number): Promise<AttemptAnswer>;
  close(): Promise<void>;
}

export type CallObserver = (buyer: string, endpoint: string, result: string, seconds: number) => void;

/** How an adapter's connection pool is sized and bounded. */
export interface AdapterOptions {
  /** The buyer's keep-alive connections (default: its `concurrency`, so its bulkhead never queues in undici). */
  connections?: number;
  /** The largest answer read from the buyer (UPSTREAM_RESPONSE_MAX_BYTES; default 1 MiB). */
  maxResponseBytes?: number;
  /** The non-public ranges the buyer may be called at (BUYER_PRIVATE_RANGES); left out: anywhere. */
  addresses?: AddressAllowList;
}
