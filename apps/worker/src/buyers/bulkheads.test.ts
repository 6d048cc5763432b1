import { describe, expect, it } from 'vitest';
import { Bulkheads, MIN_HEADROOM_SLOTS, submissionConcurrency } from './bulkheads.js';

describe('Bulkheads', () => {
  it('gives each buyer at most its share of places, and a released place back once', () => {
    const bulkheads = new Bulkheads([
      { id: 'a', concurrency: 2 },
      { id: 'b', concurrency: 1 },
    ]);
    const first = bulkheads.tryTake('a');
    const second = bulkheads.tryTake('a');
    expect(first && second).toBeTruthy();
    expect(bulkheads.tryTake('a')).toBeUndefined();
    // Another buyer's share is its own.
    expect(bulkheads.tryTake('b')).toBeDefined();
    first!();
    first!();
    expect(bulkheads.inFlight('a')).toBe(1);
    expect(bulkheads.tryTake('a')).toBeDefined();
    expect(bulkheads.tryTake('a')).toBeUndefined();
    expect(bulkheads.tryTake('unknown')).toBeUndefined();
  });

  it('sizes the job concurrency to leave room beyond the sum of the shares', () => {
    const bulkheads = new Bulkheads([
      { id: 'a', concurrency: 16 },
      { id: 'b', concurrency: 16 },
    ]);
    expect(bulkheads.total).toBe(32);
    expect(submissionConcurrency(100, bulkheads)).toBe(100);
    expect(submissionConcurrency(20, bulkheads)).toBe(32 + MIN_HEADROOM_SLOTS);
    expect(submissionConcurrency(20, undefined)).toBe(20);
  });
});
