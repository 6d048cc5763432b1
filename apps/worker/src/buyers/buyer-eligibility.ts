import type { Buyer, BuyerFilters } from '@funnel/contracts/buyers';
import { withinRateCap } from '@funnel/contracts/rate-caps';
import type { ScreeningVerdict } from '@funnel/contracts/screening';
import type { AttemptRanking } from '@funnel/contracts/lead-events';
import type { HeldBid } from './buyer-adapter.js';

/** What the filters look at, in server field names. */
export interface LeadTraits {
  state?: unknown;
  loan_amount?: unknown;
  income_net_monthly?: unknown;
  credit_score?: unknown;
  loan_reason?: unknown;
  /** Screening's verdict on the lead (ADR 0030); none when screening is off. */
  screening?: ScreeningVerdict | undefined;
}

/** What the filters look at for a stored lead: its fields and screening's verdict. */
export function traitsOf(lead: {
  fields: Record<string, unknown>;
  submission?: { screening?: ScreeningVerdict | undefined } | undefined;
}): LeadTraits {
  return { ...(lead.fields as LeadTraits), screening: lead.submission?.screening };
}

/**
 * One step of a walk: a buyer at one price floor (none for protocols without a price). In an auction (ADR
 * 0020), a ping-post buyer's step holds the bid its ping won, and every step its place in the ranking.
 */
export interface WalkStep {
  buyer: string;
  floor?: number;
  bid?: HeldBid;
  ranking?: AttemptRanking;
}

/** The hour of the day (0-23) at `now` in `timeZone`. */
export function hourIn(timeZone: string, now: number): number {
  const hour = new Intl.DateTimeFormat('en-US', { timeZone, hour: 'numeric', hourCycle: 'h23' }).format(now);
  return Number(hour) % 24;
}

/** Whether the buyer's filters take this lead at `now` (caps are counted separately, when an attempt starts). */
export function takesLead(filters: BuyerFilters, lead: LeadTraits, timeZone: string, now: number): boolean {
  const amount = Number(lead.loan_amount);
  const income = Number(lead.income_net_monthly);
  if (filters.states && !filters.states.includes(String(lead.state))) return false;
  if (filters.maxApr !== undefined && !withinRateCap(lead.state, filters.maxApr)) return false;
  if (filters.minAmount !== undefined && !(amount >= filters.minAmount)) return false;
  if (filters.maxAmount !== undefined && !(amount <= filters.maxAmount)) return false;
  if (filters.minMonthlyIncome !== undefined && !(income >= filters.minMonthlyIncome)) return false;
  if (filters.creditBands && !filters.creditBands.includes(lead.credit_score as never)) return false;
  if (filters.loanReasons && !filters.loanReasons.includes(lead.loan_reason as never)) return false;
  if (
    filters.minScreeningScore !== undefined &&
    !((lead.screening?.score ?? -1) >= filters.minScreeningScore)
  ) {
    return false;
  }
  const refused = filters.refusedScreeningReasons;
  if (refused && lead.screening?.reasons.some((reason) => refused.includes(reason))) return false;
  if (filters.activeHours) {
    const hour = hourIn(timeZone, now);
    const { fromHour, toHour } = filters.activeHours;
    const active = fromHour < toHour ? hour >= fromHour && hour < toHour : hour >= fromHour || hour < toHour;
    if (!active) return false;
  }
  return true;
}

/**
 * The walk for a lead: the buyers whose filters take it, lowest tier first (file order within a tier), each at
 * every floor of its ladder from the top down. Planned once per lead and persisted, so a resumed walk follows
 * the same steps even if the hour or the file changed since.
 */
export function planWalk(
  buyers: readonly Buyer[],
  lead: LeadTraits,
  timeZone: string,
  now: number,
): WalkStep[] {
  return buyers
    .map((buyer, order) => ({ buyer, order }))
    .filter(({ buyer }) => takesLead(buyer.filters, lead, timeZone, now))
    .sort((a, b) => a.buyer.tier - b.buyer.tier || a.order - b.order)
    .flatMap(({ buyer }) =>
      buyer.priceLadder
        ? buyer.priceLadder.map((floor) => ({ buyer: buyer.id, floor }))
        : [{ buyer: buyer.id }],
    );
}
