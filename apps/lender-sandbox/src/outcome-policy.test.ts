import { describe, expect, it } from 'vitest';
import { LEAD_STATUS } from '@funnel/contracts/lender-network';
import { decideOutcome, statusAt } from './outcome-policy.js';
import { DEFAULT_OUTCOME_CONFIG, type OutcomeConfig } from './sandbox-config.js';

const T0 = 1_750_000_000_000;
const config = (patch: Partial<OutcomeConfig> = {}): OutcomeConfig => ({
  ...DEFAULT_OUTCOME_CONFIG,
  ...patch,
});
const lead = (n: number) => ({ partnerLeadId: `lead-${String(n).padStart(16, '0')}` });

describe('decideOutcome with testMode', () => {
  it('testSold true → sold at once, testSold false or absent → rejected at once', () => {
    const random = config({ soldShare: 0, pendingShare: 1 });
    for (const [testSold, final] of [
      [true, 'sold'],
      [false, 'rejected'],
      [undefined, 'rejected'],
    ] as const) {
      const decision = decideOutcome({ ...lead(1), testMode: true, testSold }, random, T0);
      expect(decision.final).toBe(final);
      expect(statusAt(decision, T0, 0)).toBe(final === 'sold' ? LEAD_STATUS.SOLD : LEAD_STATUS.REJECTED);
    }
  });

  it('testPendingMs: pending until the duration has passed, then the testSold outcome', () => {
    const decision = decideOutcome(
      { ...lead(1), testMode: true, testSold: true },
      config({ testPendingMs: 5000 }),
      T0,
    );
    expect(statusAt(decision, T0, 0)).toBe(LEAD_STATUS.PENDING);
    expect(statusAt(decision, T0 + 4999, 7)).toBe(LEAD_STATUS.PENDING);
    expect(statusAt(decision, T0 + 5000, 8)).toBe(LEAD_STATUS.SOLD);
  });

  it('testPendingPings: the first N pings answer pending, ping N + 1 the testSold outcome', () => {
    const decision = decideOutcome(
      { ...lead(1), testMode: true, testSold: false },
      config({ testPendingPings: 3 }),
      T0,
    );
    expect(statusAt(decision, T0, 0)).toBe(LEAD_STATUS.PENDING);
    expect([1, 2, 3, 4].map((pings) => statusAt(decision, T0, pings))).toEqual([
      LEAD_STATUS.PENDING,
      LEAD_STATUS.PENDING,
      LEAD_STATUS.PENDING,
      LEAD_STATUS.REJECTED,
    ]);
  });
});

describe('decideOutcome without testMode', () => {
  it('follows the shares at their extremes', () => {
    const sold = decideOutcome(lead(1), config({ soldShare: 1, pendingShare: 0 }), T0);
    expect(sold).toMatchObject({ final: 'sold', pendingUntil: T0 });
    const rejected = decideOutcome(lead(1), config({ soldShare: 0, pendingShare: 0 }), T0);
    expect(rejected.final).toBe('rejected');
  });

  it('draws pending durations within [pendingMinMs, pendingMaxMs]', () => {
    const pending = config({ pendingShare: 1, pendingMinMs: 100, pendingMaxMs: 300 });
    const durations = Array.from(
      { length: 200 },
      (_, n) => decideOutcome(lead(n), pending, T0).pendingUntil - T0,
    );
    expect(Math.min(...durations)).toBeGreaterThanOrEqual(100);
    expect(Math.max(...durations)).toBeLessThanOrEqual(300);
    expect(new Set(durations).size).toBeGreaterThan(50);
  });

  it('approximates the configured shares over many leads', () => {
    const mixed = config({ soldShare: 0.3, pendingShare: 0.6 });
    const decisions = Array.from({ length: 4000 }, (_, n) => decideOutcome(lead(n), mixed, T0));
    const soldShare = decisions.filter((d) => d.final === 'sold').length / decisions.length;
    const pendingShare = decisions.filter((d) => d.pendingUntil > T0).length / decisions.length;
    expect(soldShare).toBeGreaterThan(0.27);
    expect(soldShare).toBeLessThan(0.33);
    expect(pendingShare).toBeGreaterThan(0.57);
    expect(pendingShare).toBeLessThan(0.63);
  });

  it('is reproducible: same seed and lead id → same decision; another seed → other decisions', () => {
    const mixed = config({ soldShare: 0.5, pendingShare: 0.5, seed: 42 });
    const run = (c: OutcomeConfig) => Array.from({ length: 50 }, (_, n) => decideOutcome(lead(n), c, T0));
    expect(run(mixed)).toEqual(run(mixed));
    expect(run({ ...mixed, seed: 43 })).not.toEqual(run(mixed));
  });
});
