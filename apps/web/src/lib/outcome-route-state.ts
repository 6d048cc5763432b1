import * as z from 'zod';
import { LeadOutcomeSchema, type LeadOutcome } from '@funnel/contracts/lead-outcome';

/**
 * What the waiting screen hands the outcome screen it opens, as router state (never in the URL). A reload or a
 * visit from elsewhere has none, and the outcome screen reads the lead instead.
 */
export interface OutcomeRouteState {
  outcome: LeadOutcome;
  /**
   * Set on the outcome screen's own history entry just before it sends the browser on: coming back to that entry
   * (Back from the lender's page, a reload) shows the screen with a link instead of sending the visitor again.
   */
  redirected?: boolean;
}

const OutcomeRouteStateSchema = z.object({ outcome: LeadOutcomeSchema, redirected: z.boolean().optional() });

/** The outcome carried in `state`, when it holds a valid one. */
export function readOutcomeRouteState(state: unknown): LeadOutcome | undefined {
  const parsed = OutcomeRouteStateSchema.safeParse(state);
  return parsed.success ? parsed.data.outcome : undefined;
}

/** True when `state` says this entry's screen already sent the browser on to its address. */
export function wasRedirected(state: unknown): boolean {
  const parsed = OutcomeRouteStateSchema.safeParse(state);
  return parsed.success && parsed.data.redirected === true;
}

/** The later of two readings of the same lead's outcome (the one with the higher sequence number). */
export function latestOutcome(
  a: LeadOutcome | undefined,
  b: LeadOutcome | undefined,
): LeadOutcome | undefined {
  if (!a || !b) return a ?? b;
  return b.seq > a.seq ? b : a;
}
