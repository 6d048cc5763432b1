import { contractPriceOf, pingPostDeadlines, type Buyer, type BuyersFile } from '@funnel/contracts/buyers';
import { isBidLive } from '@funnel/contracts/ping-post-network';
import type { LeadRecord } from '@funnel/lead-store/lead-store';
import { dayIn } from '@funnel/server-runtime/buyer-caps';
import type { BuyerAdapter, HeldBid } from '../buyers/buyer-adapter.js';
import { takesLead, traitsOf, type WalkStep } from '../buyers/buyer-eligibility.js';
import { qualityBandOf } from '../buyers/buyer-payload-context.js';
import type { BuyerBreakers } from '../buyers/buyer-breakers.js';
import type { BuyerLearning } from '../buyers/buyer-learning.js';
import type { Bulkheads } from '../buyers/bulkheads.js';
import { rankByExpectedValue, rankByPrice, type Candidate } from '../buyers/expected-value.js';
import { BID_MARGIN_MS, PingPostAdapter } from '../buyers/ping-post-adapter.js';
import type { WaterfallCursors } from './waterfall-cursor.js';

export interface AuctionDeps {
  buyers: BuyersFile;
  adapters: ReadonlyMap<string, BuyerAdapter>;
  bulkheads: Bulkheads;
  /**
   * A paused buyer (ADR 0022), or one that needs its key (ADR 0024), is left out of new plans and gets no new
   * attempt; its attempt in flight ends.
   */
  isPaused?: ((buyer: string) => boolean) | undefined;
  /** A buyer whose breaker is open is left out like a paused one; an attempt asks it before it starts. */
  breakers?: BuyerBreakers | undefined;
  cursors: WaterfallCursors;
  /** The buyers' records the ranking learns from; without it every buyer is ranked on the priors. */
  learning?: BuyerLearning | undefined;
  now: () => number;
}

/** `buyers` but those whose breaker is open (ADR 0022): a lead planned now passes them over. */
export async function withoutBrokenBuyers<B extends { id: string }>(
  deps: Pick<AuctionDeps, 'breakers'>,
  buyers: readonly B[],
): Promise<B[]> {
  const blocked = await deps.breakers?.blocked(buyers.map((buyer) => buyer.id));
  return blocked ? buyers.filter((buyer) => !blocked.has(buyer.id)) : [...buyers];
}

/** The time kept after the round for at least one post: the round never eats the whole deadline. */
const POST_RESERVE_MS = 1500;

/** The key a buyer's ping is made under for a lead: the same after a crash, so the buyer answers the same. */
export function pingKey(leadId: string, buyer: string): string {
  return `${leadId}-ping-${buyer}`;
}

/**
 * An auction's plan for a lead (issue 27, ADR 0020): every eligible ping-post buyer (filters, hours, a cap with
 * room, a free place in its bulkhead) pinged at once, each within its own `pingMs`, the round over when all have
 * answered or after `roundMs`; then the bids at or above their floor and still live, and the direct-post buyers
 * at each floor of their ladder (sync-post) or at their contract price (lead-service), ranked best first. Each
 * step keeps its rank and the ranking's inputs. The caller persists the plan before any post, so a run after a
 * crash walks the same ranking; a crash during the round pings again under the same ids, and gets the same bids.
 */
export async function planAuction(
  deps: AuctionDeps,
  lead: LeadRecord,
  deadline: number,
): Promise<WalkStep[]> {
  const { buyers, auction, timeZone } = deps.buyers;
  const now = deps.now();
  const eligible = await withoutBrokenBuyers(
    deps,
    buyers.filter(
      (buyer) => !deps.isPaused?.(buyer.id) && takesLead(buyer.filters, traitsOf(lead), timeZone, now),
    ),
  );
  const pinged = eligible.filter((buyer) => buyer.protocol === 'ping-post');
  const roundMs = Math.min(auction.roundMs, deadline - now - POST_RESERVE_MS);
  const bids = roundMs > 0 ? await pingRound(deps, lead, await withCapRoom(deps, pinged, now), roundMs) : [];

  const at = deps.now();
  const candidates: (Candidate & { step: WalkStep; source: 'bid' | 'floor' })[] = [];
  const record = (buyer: string) => deps.learning?.record(buyer) ?? NO_RECORD;
  for (const { buyer, bid } of bids) {
    const floor = buyer.priceLadder?.[0];
    if ((floor !== undefined && bid.price < floor) || !isBidLive(bid, at, BID_MARGIN_MS)) continue;
    const step = { buyer: buyer.id, bid };
    candidates.push({ buyer: buyer.id, price: bid.price, record: record(buyer.id), step, source: 'bid' });
  }
  for (const buyer of eligible) {
    if (buyer.protocol === 'ping-post') continue;
    const floors = buyer.priceLadder ?? [undefined];
    for (const floor of floors) {
      const price = floor ?? contractPriceOf(buyer, qualityBandOf(lead));
      const step = { buyer: buyer.id, ...(floor !== undefined ? { floor } : {}) };
      candidates.push({ buyer: buyer.id, price, record: record(buyer.id), step, source: 'floor' });
    }
  }
  const ranked = auction.rankBy === 'price' ? rankByPrice(candidates) : rankByExpectedValue(candidates);
  return ranked.map((c, i) => ({
    ...c.step,
    ranking: {
      rank: i + 1,
      source: c.source,
      price: c.price,
      pAccepted: c.pAccepted,
      pReturned: c.pReturned,
      expectedValue: c.expectedValue,
      ...c.record,
    },
  }));
}

const NO_RECORD = { posts: 0, accepted: 0, settledSales: 0, returned: 0 };

/** The buyers whose caps have room now (a read: the place itself is taken when a post begins). */
async function withCapRoom(deps: AuctionDeps, buyers: Buyer[], now: number): Promise<Buyer[]> {
  const day = dayIn(deps.buyers.timeZone, now);
  const room = await Promise.all(
    buyers.map(async (buyer) => {
      const { hourKey, dayKey } = deps.cursors.capKeys(buyer.id, now, day);
      const { perHour, perDay } = buyer.caps;
      if (perHour !== undefined && (await deps.cursors.capCount(hourKey)) >= perHour) return false;
      if (perDay !== undefined && (await deps.cursors.capCount(dayKey)) >= perDay) return false;
      return true;
    }),
  );
  return buyers.filter((_, i) => room[i]);
}

/**
 * Pings `buyers` in parallel, each within min(its `pingMs`, the round), each holding a place in its bulkhead
 * while its ping is in flight (a full bulkhead sits the round out). Resolves with the bids in when every ping
 * has answered or the round is over, whichever comes first; a failed ping is no bid.
 */
async function pingRound(
  deps: AuctionDeps,
  lead: LeadRecord,
  buyers: Buyer[],
  roundMs: number,
): Promise<{ buyer: Buyer; bid: HeldBid }[]> {
  const bids: { buyer: Buyer; bid: HeldBid }[] = [];
  const pings = buyers.map(async (buyer) => {
    const adapter = deps.adapters.get(buyer.id);
    if (!(adapter instanceof PingPostAdapter)) return;
    const place = deps.bulkheads.tryTake(buyer.id);
    if (!place) return;
    try {
      const budgetMs = Math.min(pingPostDeadlines(buyer).pingMs, roundMs);
      const bid = await adapter.ping(lead, pingKey(lead.id, buyer.id), budgetMs);
      if (bid) bids.push({ buyer, bid });
    } catch {
      // No answer in time, or a broken one: no bid (the adapter's observer counts it).
    } finally {
      place();
    }
  });
  let timer: NodeJS.Timeout | undefined;
  const roundOver = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, roundMs);
  });
  await Promise.race([Promise.all(pings), roundOver]);
  clearTimeout(timer);
  // Bids are kept in buyer order, so the same answers give the same plan whichever came in first.
  return [...bids].sort((a, b) => buyers.indexOf(a.buyer) - buyers.indexOf(b.buyer));
}
