import { LEAD_STATUS, type LeadStatus, type SubmissionPayload } from '@funnel/contracts/lender-network';
import type { OutcomeConfig } from './sandbox-config.js';
import { SeededRandom } from './seeded-random.js';

/** What the network decided for a lead when it was first posted; later answers are read from it. */
export interface LeadDecision {
  final: 'sold' | 'rejected';
  /** Until this time (ms since the epoch) the lead answers pending. */
  pendingUntil: number;
  /** The first this-many pings answer pending. */
  pendingPings: number;
  /** A sold answer carries `redirect_url`. */
  soldRedirect: boolean;
  /** A rejected answer carries `rejectUrl`. */
  rejectRedirect: boolean;
}

/**
 * Decides a new lead's outcome.
 *
 * `testMode: true` makes it deterministic: `testSold: true` → sold, anything else → rejected (the network
 * "processes the lead without selling it"), decided at once unless the configuration's `testPendingMs` /
 * `testPendingPings` ask for a pending phase first. Without `testMode` the outcome is drawn from the seed and our
 * lead id with the configured shares, so the same lead gets the same outcome in every run with the same seed.
 */
export function decideOutcome(
  payload: Pick<SubmissionPayload, 'partnerLeadId' | 'testMode' | 'testSold'>,
  config: OutcomeConfig,
  receivedAt: number,
): LeadDecision {
  const { soldRedirect, rejectRedirect } = config;
  if (payload.testMode === true) {
    return {
      final: payload.testSold === true ? 'sold' : 'rejected',
      pendingUntil: receivedAt + config.testPendingMs,
      pendingPings: config.testPendingPings,
      soldRedirect,
      rejectRedirect,
    };
  }
  const random = SeededRandom.derive(config.seed, 'outcome', payload.partnerLeadId);
  const sold = random.chance(config.soldShare);
  const pending = random.chance(config.pendingShare);
  const pendingMs = random.intBetween(config.pendingMinMs, config.pendingMaxMs);
  return {
    final: sold ? 'sold' : 'rejected',
    pendingUntil: pending ? receivedAt + pendingMs : receivedAt,
    pendingPings: 0,
    soldRedirect,
    rejectRedirect,
  };
}

/** The status a lead answers with at `now`, once it has had `pings` pings (the one being answered included). */
export function statusAt(decision: LeadDecision, now: number, pings: number): LeadStatus {
  const waiting = now < decision.pendingUntil;
  const pingsToGo = decision.pendingPings > 0 && pings <= decision.pendingPings;
  if (waiting || pingsToGo) return LEAD_STATUS.PENDING;
  return decision.final === 'sold' ? LEAD_STATUS.SOLD : LEAD_STATUS.REJECTED;
}
