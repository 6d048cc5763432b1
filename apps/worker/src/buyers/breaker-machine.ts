import type { BreakerState } from '@funnel/server-runtime/buyer-breaker';

/** How an attempt ended, as the waterfall records it (`AttemptRecord`). */
export interface EndedAttempt {
  result: string;
  errorKind?: string | undefined;
}

/** A buyer's breaker thresholds (`breakerOf` in the contracts). */
export interface BreakerSettings {
  failures: number;
  coolDownMs: number;
}

/**
 * What an ended attempt says about the buyer: `success` when it answered (a sale, a rejection or field errors
 * are all valid answers), `failure` when it did not (a timeout, a 5xx or 429, no connection, an answer that cannot
 * be read), nothing when the buyer was never asked (a full cap or share, an auction's expired bid, a buyer no
 * longer configured).
 */
export function breakerOutcome(attempt: EndedAttempt): 'success' | 'failure' | undefined {
  switch (attempt.result) {
    case 'sold':
    case 'rejected':
    case 'invalid':
      return 'success';
    case 'timeout':
      return 'failure';
    case 'error':
      return attempt.errorKind !== undefined && attempt.errorKind !== 'bid_expired' ? 'failure' : undefined;
    default:
      return undefined;
  }
}

/** Whether a lead planned now leaves the buyer out: open and cooling down, or its trial held by an attempt. */
export function blocksPlanning(breaker: BreakerState, now: number): boolean {
  if (breaker.state === 'open') return now < breaker.openUntil;
  if (breaker.state === 'half-open') return now < breaker.trialUntil;
  return false;
}

/**
 * Whether an attempt about to start may go: `pass` (closed), `trial` (the cool-down is over and this attempt
 * takes the one trial, held for `trialMs`: `next` must be written before it starts), or `skip` (open, or another
 * attempt holds the trial). A trial whose holder never reported (its worker died) is taken again once its
 * `trialUntil` is past.
 */
export function admit(
  breaker: BreakerState,
  now: number,
  trialMs: number,
): { verdict: 'pass' } | { verdict: 'skip' } | { verdict: 'trial'; next: BreakerState } {
  if (breaker.state === 'closed') return { verdict: 'pass' };
  if (blocksPlanning(breaker, now)) return { verdict: 'skip' };
  return { verdict: 'trial', next: { ...breaker, state: 'half-open', trialUntil: now + trialMs } };
}

/**
 * The breaker after an attempt's outcome: a success closes it (from any state: the buyer answers); a failure
 * counts, opens a closed breaker at `settings.failures` in a row and re-opens a half-open one at once, each time
 * for `settings.coolDownMs`. Undefined when nothing changes.
 */
export function settle(
  breaker: BreakerState,
  outcome: 'success' | 'failure',
  now: number,
  settings: BreakerSettings,
): BreakerState | undefined {
  if (outcome === 'success') {
    if (breaker.state === 'closed' && breaker.failures === 0) return undefined;
    return { ...breaker, state: 'closed', failures: 0, openUntil: 0, trialUntil: 0 };
  }
  const failures = breaker.failures + 1;
  const opens =
    breaker.state === 'half-open' || (breaker.state === 'closed' && failures >= settings.failures);
  if (opens) {
    return {
      ...breaker,
      state: 'open',
      failures,
      openUntil: now + settings.coolDownMs,
      trialUntil: 0,
      skips: 0,
    };
  }
  // Open already (an attempt begun before it opened): counted, the cool-down unchanged.
  return { ...breaker, failures };
}
