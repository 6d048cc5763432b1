import { isDeepStrictEqual } from 'node:util';
import type * as z from 'zod';
import {
  PingPayloadSchema,
  PostPayloadSchema,
  type BidResponse,
  type PingFields,
  type PostPayload,
  type PostResponse,
} from '@funnel/contracts/ping-post-network';
import { pingFieldsBeyondAllowList } from '@funnel/contracts/ping-allow-list';
import { SCREENING_BANDS, type ScreeningBand } from '@funnel/contracts/screening';
import type { SandboxBuyer, SandboxBuyerStats, SandboxPingRecording } from '@funnel/contracts/sandbox-buyers';
import { offerAddress } from './lender-addresses.js';
import { SeededRandom, derivedId } from './seeded-random.js';

type PingPostProfile = Extract<SandboxBuyer, { protocol: 'ping-post' }>;

/** How one call is answered, and after how long; `status` 400 for a body that is not a ping. */
export interface PingPostAnswer<T> {
  status: 200 | 400;
  body: T | { Errors: { Field: string; Description: string }[] };
  delayMs: number;
}

interface HeldBid {
  pinged: PingFields;
  price: number;
  expiresAt: number;
  /** The idempotency key of the post that used it. */
  postedWith?: string;
}

/**
 * A simulated ping/post buyer (issue 27). A ping gets a bid with a seeded chance (`bidRate`) at a seeded price
 * in [bidMin, bidMax], held for `bidTtlMs`; a ping slower than its `MaxResponseMs` gets no bid. A post is refused
 * when its bid is unknown, expired or already used, or when its `Pinged` fields differ from what was pinged with
 * that bid or its `Lead` contradicts them (anti-tamper, as PX does); otherwise it is accepted with a seeded chance
 * (`acceptShare`) that does not depend on the price bid. Every ping is recorded: the fields it carried beyond the
 * ping's allow-list are counted, to prove that no ping carried an identifying field. Pings are kept by `PingID`
 * and posts by idempotency key: a replay gets the first answer.
 */
export class PingPostBuyer {
  readonly #pings = new Map<string, BidResponse>();
  readonly #bids = new Map<string, HeldBid>();
  readonly #posts = new Map<string, { answer: PostResponse; payload: unknown }>();
  readonly #postsByLead = new Map<string, number>();
  readonly #beyond = new Set<string>();
  #stats = zeroStats();
  #recording = zeroRecording();

  constructor(
    readonly profile: PingPostProfile,
    private readonly publicUrl: string,
    /** Pings, bids and posts kept in memory, each; the oldest are forgotten beyond this. */
    private readonly maxHeld: number,
    private readonly now: () => number,
    /** Told of each new sale by our `ReferenceID` (the buyer's returns, ADR 0020). */
    private readonly onSold?: (reference: string) => void,
  ) {}

  ping(body: unknown): PingPostAnswer<BidResponse> {
    this.#recording.pings += 1;
    const beyond = pingFieldsBeyondAllowList(body);
    if (beyond.length > 0) {
      this.#recording.withFieldsBeyondAllowList += 1;
      beyond.forEach((field) => this.#beyond.add(field));
    }
    const parsed = PingPayloadSchema.safeParse(body);
    if (!parsed.success) {
      this.#recording.invalid += 1;
      return { status: 400, body: { Errors: fieldErrorsOf(parsed.error.issues) }, delayMs: 0 };
    }
    const ping = parsed.data;
    const delayMs = this.#latency('ping', ping.PingID);
    const known = this.#pings.get(ping.PingID);
    if (known) {
      this.#recording.replays += 1;
      return { status: 200, body: known, delayMs };
    }
    const timedOut = delayMs > ping.MaxResponseMs;
    const answer =
      timedOut || !this.#takesBand(ping.QualityBand) ? noBid() : this.#bid(ping.PingID, ping.Fields);
    remember(this.#pings, ping.PingID, answer, this.maxHeld);
    if (answer.Result === 'Bid') this.#recording.bids += 1;
    else this.#recording.noBids += 1;
    return { status: 200, body: answer, delayMs: timedOut ? ping.MaxResponseMs : delayMs };
  }

  post(body: unknown): PingPostAnswer<PostResponse> {
    const parsed = PostPayloadSchema.safeParse(body);
    if (!parsed.success) {
      this.#stats.errors += 1;
      return {
        status: 200,
        body: { Result: 'Error', Errors: fieldErrorsOf(parsed.error.issues) },
        delayMs: 0,
      };
    }
    const payload = parsed.data;
    const delayMs = this.#latency('post', payload.IdempotencyKey);
    const known = this.#posts.get(payload.IdempotencyKey);
    if (known) {
      this.#stats.replays += 1;
      return { status: 200, body: known.answer, delayMs };
    }
    this.#stats.attempts += 1;
    const seen = this.#postsByLead.get(payload.ReferenceID) ?? 0;
    if (seen > 0) this.#stats.repeatedAttempts += 1;
    remember(this.#postsByLead, payload.ReferenceID, seen + 1, this.maxHeld);

    const answer = this.#decide(payload);
    remember(this.#posts, payload.IdempotencyKey, { answer, payload: body }, this.maxHeld);
    if (answer.Result === 'Accepted') {
      this.#stats.sold += 1;
      this.onSold?.(payload.ReferenceID);
    } else this.#stats.rejected += 1;
    return { status: 200, body: answer, delayMs };
  }

  /** A post as the buyer holds it, by idempotency key: the body as first posted and its answer. */
  attempt(key: string): { payload: unknown; answer: PostResponse } | undefined {
    return this.#posts.get(key);
  }

  recording(): SandboxPingRecording {
    return { ...this.#recording, fieldsBeyondAllowList: [...this.#beyond].sort() };
  }

  stats(): SandboxBuyerStats {
    return { id: this.profile.id, protocol: 'ping-post', ...this.#stats };
  }

  reset(): void {
    this.#pings.clear();
    this.#bids.clear();
    this.#posts.clear();
    this.#postsByLead.clear();
    this.#beyond.clear();
    this.#stats = zeroStats();
    this.#recording = zeroRecording();
  }

  #takesBand(band: ScreeningBand | undefined): boolean {
    const least = this.profile.minQualityBand;
    return !least || (band !== undefined && SCREENING_BANDS.indexOf(band) <= SCREENING_BANDS.indexOf(least));
  }

  #bid(pingId: string, fields: PingFields): BidResponse {
    const { states, seed, bidRate, bidMin, bidMax, bidTtlMs } = this.profile;
    if (states && !states.includes(fields.State)) return noBid();
    const random = SeededRandom.derive(seed, 'bid', pingId);
    if (!random.chance(bidRate)) return noBid();
    const price = Math.round((bidMin + random.next() * (bidMax - bidMin)) * 100) / 100;
    const bidId = derivedId(seed, 'bid-id', pingId);
    const expiresAt = this.now() + bidTtlMs;
    remember(this.#bids, bidId, { pinged: fields, price, expiresAt }, this.maxHeld);
    return { Result: 'Bid', BidID: bidId, Price: price, ExpiresAt: new Date(expiresAt).toISOString() };
  }

  #decide(payload: PostPayload): PostResponse {
    const bid = this.#bids.get(payload.BidID);
    if (!bid) return refused('UnknownBid');
    if (this.now() > bid.expiresAt) {
      this.#recording.expiredPosts += 1;
      return refused('BidExpired');
    }
    if (!isDeepStrictEqual(bid.pinged, payload.Pinged) || !payload.Lead.Zip.startsWith(bid.pinged.Zip3)) {
      this.#recording.tamperedPosts += 1;
      return refused('Tampered');
    }
    if (bid.postedWith !== undefined) return refused('BidUsed');
    bid.postedWith = payload.IdempotencyKey;
    const { seed, acceptShare } = this.profile;
    if (!SeededRandom.derive(seed, 'accept', payload.BidID).chance(acceptShare)) return refused('Declined');
    const leadId = derivedId(seed, 'ping-post-lead', payload.IdempotencyKey);
    return {
      Result: 'Accepted',
      LeadID: leadId,
      Price: bid.price,
      RedirectURL: offerAddress(this.publicUrl, leadId),
      Errors: [],
    };
  }

  #latency(call: string, key: string): number {
    const { seed, latencyMinMs, latencyMaxMs } = this.profile;
    return SeededRandom.derive(seed, 'latency', call, key).intBetween(latencyMinMs, latencyMaxMs);
  }
}

function remember<V>(map: Map<string, V>, key: string, value: V, max: number): void {
  map.set(key, value);
  if (map.size > max) {
    const oldest = map.keys().next().value;
    if (oldest !== undefined) map.delete(oldest);
  }
}

/** Each problem under the buyer's own field name, dotted (`Lead.Zip`); an unknown field is named itself. */
function fieldErrorsOf(issues: readonly z.core.$ZodIssue[]): { Field: string; Description: string }[] {
  return issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ Field: [...issue.path, key].join('.'), Description: issue.message }))
      : [{ Field: issue.path.join('.'), Description: issue.message }],
  );
}

function noBid(): BidResponse {
  return { Result: 'NoBid' };
}

function refused(reason: NonNullable<PostResponse['Reason']>): PostResponse {
  return { Result: 'Rejected', Reason: reason, Errors: [] };
}

function zeroStats() {
  return { attempts: 0, replays: 0, repeatedAttempts: 0, sold: 0, rejected: 0, errors: 0, pending: 0 };
}

function zeroRecording() {
  return {
    pings: 0,
    replays: 0,
    bids: 0,
    noBids: 0,
    invalid: 0,
    withFieldsBeyondAllowList: 0,
    tamperedPosts: 0,
    expiredPosts: 0,
  };
}
