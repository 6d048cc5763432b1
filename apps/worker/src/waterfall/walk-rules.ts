import type { Buyer } from '@funnel/contracts/buyers';
import type { NewOutcome } from '@funnel/lead-store/lead-store';
import { noLender, rejected } from '../buyers/decision.js';
import type { Cursor } from './waterfall-cursor.js';

/**
 * How long a lead waits, off the worker's slots, before trying a full buyer again (ADR 0017): from 100 ms,
 * doubling with each wait in a row up to 1 s, with ±25 % jitter so that the waiting leads do not all come back
 * at once.
 */
const WAIT_MIN_MS = 100;
const WAIT_MAX_MS = 1000;
export function bulkheadWaitMs(waits: number, random = Math.random): number {
  const base = Math.min(WAIT_MAX_MS, WAIT_MIN_MS * 2 ** Math.min(waits, 10));
  return Math.round(base * (0.75 + random() * 0.5));
}

/**
 * How a walk that ran out of buyers ends. Only a buyer's answer is a rejection: when at least one buyer
 * declined the lead, it is rejected; when none decided (each timed out, failed or was capped, or none was
 * eligible), nobody said no, and the borrower gets the no-lender screen (docs/product-rules.md §lender-network-answers: no final status).
 */
export function walkEnd(cursor: Cursor, noLenderFallbackUrl: string | undefined): NewOutcome {
  if (cursor.declined) return rejected(cursor.rejectUrl, 'all_buyers_declined');
  return noLender(cursor.plan.length === 0 ? 'no_eligible_buyer' : 'no_buyer_decided', noLenderFallbackUrl);
}

/**
 * The time the rest of a walk may need: every step from the current one on at its buyer's full attempt budget
 * (a buyer no longer configured needs none). A lead waits for a full buyer only with time beyond this (ADR 0017).
 */
export function walkNeedsMs(cursor: Pick<Cursor, 'plan' | 'index'>, buyers: readonly Buyer[]): number {
  let needs = 0;
  for (const step of cursor.plan.slice(cursor.index)) {
    needs += buyers.find((b) => b.id === step.buyer)?.timeouts.attemptMs ?? 0;
  }
  return needs;
}

/** The first step after the current one that belongs to another buyer. */
export function nextBuyerIndex(cursor: Pick<Cursor, 'plan' | 'index'>, buyer: string): number {
  let next = cursor.index + 1;
  while (cursor.plan[next]?.buyer === buyer) next += 1;
  return next;
}
