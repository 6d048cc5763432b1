import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { BuyerLearning } from './buyer-learning.js';
import type { BuyerRecord } from './expected-value.js';

const known: BuyerRecord = { posts: 40, accepted: 30, settledSales: 25, returned: 5 };

describe("a worker's learning of the buyers' records", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it('starts learning once the buyers are switched to auction mode, without a restart', async () => {
    let auction = false;
    let reads = 0;
    const learning = new BuyerLearning(
      async () => {
        if (!auction) return undefined;
        reads += 1;
        return new Map([['known', known]]);
      },
      () => (auction ? 60_000 : 2_000),
    );
    learning.start();
    await vi.advanceTimersByTimeAsync(10_000);
    expect(reads).toBe(0);
    expect(learning.record('known')).toEqual({ posts: 0, accepted: 0, settledSales: 0, returned: 0 });

    auction = true; // a manager saves a version in auction mode
    await vi.advanceTimersByTimeAsync(2_000);
    expect(reads).toBe(1);
    expect(learning.record('known')).toEqual(known);

    // From then on, every refreshMs of the live settings.
    await vi.advanceTimersByTimeAsync(59_000);
    expect(reads).toBe(1);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(reads).toBe(2);
    await learning.stop();
    await vi.advanceTimersByTimeAsync(120_000);
    expect(reads).toBe(2);
  });

  it('keeps the last records when a read fails or there is nothing to learn', async () => {
    const answers: (Map<string, BuyerRecord> | undefined | Error)[] = [
      new Map([['known', known]]),
      new Error('the system of record did not answer'),
      undefined,
    ];
    const learning = new BuyerLearning(async () => {
      const answer = answers.shift();
      if (answer instanceof Error) throw answer;
      return answer;
    }, 1_000);
    for (let read = 0; read < 3; read++) {
      await learning.refresh();
      expect(learning.record('known')).toEqual(known);
    }
  });
});
