import { describe, expect, it } from 'vitest';
import { CLOSED_BREAKER, type BreakerState } from '@funnel/server-runtime/buyer-breaker';
import { admit, blocksPlanning, breakerOutcome, settle } from './breaker-machine.js';

const settings = { failures: 3, coolDownMs: 30_000 };

/** The breaker after `outcomes` in a row at `now`, from closed. */
function after(outcomes: ('success' | 'failure')[], now = 1000): BreakerState {
  return outcomes.reduce((b, outcome) => settle(b, outcome, now, settings) ?? b, CLOSED_BREAKER);
}

describe("a buyer's breaker", () => {
  it('opens after the configured failures in a row, not before, for the cool-down', () => {
    expect(after(['failure', 'failure']).state).toBe('closed');
    const open = after(['failure', 'failure', 'failure'], 5000);
    expect(open).toMatchObject({ state: 'open', failures: 3, openUntil: 35_000 });
  });

  it('counts failures in a row only: an answer in between starts the count again', () => {
    expect(after(['failure', 'failure', 'success', 'failure', 'failure'])).toMatchObject({
      state: 'closed',
      failures: 2,
    });
  });

  it('skips its buyer during the cool-down, then gives one trial and skips the others while it runs', () => {
    const open = after(['failure', 'failure', 'failure'], 0);
    expect(admit(open, 29_999, 2000)).toEqual({ verdict: 'skip' });
    expect(blocksPlanning(open, 29_999)).toBe(true);
    expect(blocksPlanning(open, 30_000)).toBe(false);

    const trial = admit(open, 30_000, 2000);
    expect(trial).toMatchObject({ verdict: 'trial', next: { state: 'half-open', trialUntil: 32_000 } });
    const halfOpen = trial.verdict === 'trial' ? trial.next : open;
    expect(admit(halfOpen, 31_000, 2000)).toEqual({ verdict: 'skip' });
    expect(blocksPlanning(halfOpen, 31_000)).toBe(true);
    // The trial's worker never reported: another attempt takes the trial once it has had its time.
    expect(admit(halfOpen, 32_000, 2000)).toMatchObject({ verdict: 'trial' });
  });

  it('closes on a successful trial and re-opens at once on a failed one', () => {
    const halfOpen: BreakerState = { ...after(['failure', 'failure', 'failure'], 0), state: 'half-open' };
    expect(settle(halfOpen, 'success', 31_000, settings)).toMatchObject({ state: 'closed', failures: 0 });
    expect(settle(halfOpen, 'failure', 31_000, settings)).toMatchObject({
      state: 'open',
      openUntil: 61_000,
    });
  });

  it('lets a closed breaker pass with nothing to write, and restarts the skip count when it opens', () => {
    expect(admit(CLOSED_BREAKER, 0, 2000)).toEqual({ verdict: 'pass' });
    expect(settle(CLOSED_BREAKER, 'success', 0, settings)).toBeUndefined();
    const skipped: BreakerState = {
      ...after(['failure', 'failure', 'failure'], 0),
      state: 'half-open',
      skips: 9,
    };
    expect(settle(skipped, 'failure', 40_000, settings)?.skips).toBe(0);
  });

  it('counts timeouts and failed calls, not answers, full caps or expired bids', () => {
    expect(breakerOutcome({ result: 'timeout' })).toBe('failure');
    expect(breakerOutcome({ result: 'error', errorKind: 'http_5xx' })).toBe('failure');
    expect(breakerOutcome({ result: 'error', errorKind: 'refused' })).toBe('failure');
    expect(breakerOutcome({ result: 'rejected' })).toBe('success');
    expect(breakerOutcome({ result: 'invalid' })).toBe('success');
    expect(breakerOutcome({ result: 'sold' })).toBe('success');
    expect(breakerOutcome({ result: 'capped' })).toBeUndefined();
    expect(breakerOutcome({ result: 'error', errorKind: 'bid_expired' })).toBeUndefined();
    expect(breakerOutcome({ result: 'error' })).toBeUndefined();
  });
});
