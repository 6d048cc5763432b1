import { describe, expect, it } from 'vitest';
import {
  ACCEPTANCE_PRIOR,
  RETURN_PRIOR,
  posteriorMean,
  rankByExpectedValue,
  rankByPrice,
  recordsInWindow,
  valueOf,
  type BuyerRecord,
} from './expected-value.js';

const record = (posts: number, accepted: number, settledSales = 0, returned = 0): BuyerRecord => ({
  posts,
  accepted,
  settledSales,
  returned,
});
const NEW = record(0, 0);

describe('posteriorMean', () => {
  it('is the prior mean with no history and moves towards the record with it', () => {
    expect(posteriorMean(0, 0, ACCEPTANCE_PRIOR)).toBe(0.75);
    expect(posteriorMean(0, 0, RETURN_PRIOR)).toBe(0.05);
    // (3 + 6) / (3 + 1 + 16)
    expect(posteriorMean(6, 16, ACCEPTANCE_PRIOR)).toBe(0.45);
    // (1 + 1) / (1 + 19 + 5)
    expect(posteriorMean(1, 5, RETURN_PRIOR)).toBe(0.08);
  });

  it('refuses a prior or counts that make no sense', () => {
    expect(() => posteriorMean(0, 0, { alpha: 0, beta: 1 })).toThrow(RangeError);
    expect(() => posteriorMean(3, 2, ACCEPTANCE_PRIOR)).toThrow(RangeError);
  });
});

describe('valueOf', () => {
  it('is price × P(accepted) × (1 − P(returned)), hand-computed', () => {
    // 50 × 9/20 × (1 − 2/25) = 50 × 0.45 × 0.92 = 20.7
    const valued = valueOf({ buyer: 'b', price: 50, record: record(16, 6, 5, 1) });
    expect(valued.pAccepted).toBe(0.45);
    expect(valued.pReturned).toBe(0.08);
    expect(valued.expectedValue).toBeCloseTo(20.7, 10);
  });
});

describe('rankByExpectedValue', () => {
  it('ranks by what a buyer really pays, not by its bid; a direct-post buyer competes through its floor', () => {
    const ranked = rankByExpectedValue([
      // Bids high, accepts 6 posts in 36: 80 × 9/40 × (1 − 1/26) = 17.3077
      { buyer: 'high-bidder', price: 80, record: record(36, 6, 6, 0) },
      // A sync-post step at floor 20, sold 8 in 10: 20 × 11/14 × (1 − 1/28) = 15.1531
      { buyer: 'direct-at-20', price: 20, record: record(10, 8, 8, 0) },
      // Bids 30, accepts 33 in 36, one return in 33: 30 × 36/40 × (1 − 2/53) = 25.9811
      { buyer: 'steady', price: 30, record: record(36, 33, 33, 1) },
      // Never posted: 30 × 0.75 × 0.95 = 21.375
      { buyer: 'newcomer', price: 30, record: NEW },
    ]);
    expect(ranked.map((c) => c.buyer)).toEqual(['steady', 'newcomer', 'high-bidder', 'direct-at-20']);
    expect(ranked.map((c) => Number(c.expectedValue.toFixed(4)))).toEqual([
      25.9811, 21.375, 17.3077, 15.1531,
    ]);
  });

  it('tries a new buyer before a known mediocre one at the same price, then learns it is worse', () => {
    // Known: 30 × 63/104 × (1 − 1/80) = 17.946; new: 21.375.
    const known = { buyer: 'known', price: 30, record: record(100, 60, 60, 0) };
    expect(rankByExpectedValue([known, { buyer: 'new', price: 30, record: NEW }])[0]!.buyer).toBe('new');
    // After 2 acceptances in 20 posts: 30 × 5/24 × 0.95 = 5.9375.
    const learned = rankByExpectedValue([known, { buyer: 'new', price: 30, record: record(20, 2) }]);
    expect(learned.map((c) => c.buyer)).toEqual(['known', 'new']);
    expect(learned[1]!.expectedValue).toBeCloseTo(5.9375, 10);
  });

  it('breaks a tie by the higher price, then by buyer id', () => {
    // 60 × 3/8 × 0.95 = 30 × 3/4 × 0.95 = 21.375
    const ranked = rankByExpectedValue([
      { buyer: 'b-cheap', price: 30, record: NEW },
      { buyer: 'z-dear', price: 60, record: record(4, 0) },
      { buyer: 'a-cheap', price: 30, record: NEW },
    ]);
    expect(ranked.map((c) => c.buyer)).toEqual(['z-dear', 'a-cheap', 'b-cheap']);
  });
});

describe('rankByPrice', () => {
  it('puts the highest bid first whatever its record, and still values every candidate', () => {
    const ranked = rankByPrice([
      { buyer: 'steady', price: 30, record: record(36, 33, 33, 1) },
      { buyer: 'high-bidder', price: 80, record: record(36, 6, 6, 0) },
      { buyer: 'newcomer', price: 30, record: NEW },
    ]);
    // Equal prices: the higher expected value first (steady 25.98 over newcomer 21.375).
    expect(ranked.map((c) => c.buyer)).toEqual(['high-bidder', 'steady', 'newcomer']);
    expect(ranked[0]!.expectedValue).toBeCloseTo(17.3077, 4);
  });
});

describe('recordsInWindow', () => {
  it('counts each buyer over the window; a sale counts in the return rate only once settled', () => {
    const now = 1_000_000;
    const day = 86_400_000;
    const records = recordsInWindow(
      [
        { buyer: 'a', at: now - 1000, accepted: true, returned: false },
        { buyer: 'a', at: now - 2000, accepted: true, returned: true },
        { buyer: 'a', at: now - 3000, accepted: true },
        { buyer: 'a', at: now - 4000, accepted: false },
        // Outside the window, and in the future: not counted.
        { buyer: 'a', at: now - day, accepted: true, returned: true },
        { buyer: 'a', at: now + 1, accepted: true },
        { buyer: 'b', at: now, accepted: false },
      ],
      now,
      day,
    );
    expect(Object.fromEntries(records)).toEqual({
      a: { posts: 4, accepted: 3, settledSales: 2, returned: 1 },
      b: { posts: 1, accepted: 0, settledSales: 0, returned: 0 },
    });
  });
});
