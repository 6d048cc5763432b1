import { describe, expect, it } from 'vitest';
import {
  PROGRESS_STEPS,
  introStatuses,
  isLastStep,
  stepEndsAt,
  type ProgressTiming,
} from './progress-sequence';

const SEARCHING = PROGRESS_STEPS.findIndex((step) => step.id === 'searching');
const CONNECTING = PROGRESS_STEPS.findIndex((step) => step.id === 'connecting');

describe('the matching progress sequence', () => {
  it('runs the three intro steps, then searches for 193 s and connects for 0.5 s', () => {
    expect(PROGRESS_STEPS.map((step) => step.id)).toEqual([
      'formation',
      'connection-setup',
      'start',
      'searching',
      'connecting',
    ]);
    expect(stepEndsAt({ index: SEARCHING, startedAt: 1_000 })).toBe(1_000 + 193_000 + 500);
    expect(stepEndsAt({ index: CONNECTING, startedAt: 0 })).toBe(1_000);
  });

  it('advances the intro steps one after another: done, in progress, waiting; all done once searching', () => {
    expect(introStatuses(0)).toEqual(['active', 'waiting', 'waiting']);
    expect(introStatuses(1)).toEqual(['done', 'active', 'waiting']);
    expect(introStatuses(2)).toEqual(['done', 'done', 'active']);
    expect(introStatuses(SEARCHING)).toEqual(['done', 'done', 'done']);
    expect(introStatuses(CONNECTING)).toEqual(['done', 'done', 'done']);
  });

  /** Runs the sequence as the hook does; answers when the outcome screen may open. */
  function outcomeShownAt(answerAt: number): number {
    let index = 0;
    let startedAt = 0;
    let answered: ProgressTiming['answered'];
    for (;;) {
      // The hook learns of the answer while step `index` shows.
      const endsWithout = stepEndsAt({ index, startedAt });
      if (!answered && answerAt < endsWithout) answered = { at: Math.max(answerAt, startedAt), index };
      const end = stepEndsAt({ index, startedAt, ...(answered ? { answered } : {}) });
      if (isLastStep(index)) {
        if (answered) return end;
        // The last step waits for the answer, then the screen opens at once.
        return Math.max(answerAt, end);
      }
      index += 1;
      startedAt = end;
    }
  }

  it('shows the outcome within 1.5 s of the answer, whatever step shows when it arrives', () => {
    // At once (a duplicate), during each intro step, early and late in the search, while connecting.
    for (const answerAt of [0, 700, 1_600, 2_500, 4_000, 4_900, 5_000, 20_000, 197_000, 198_000, 300_000]) {
      const shownAt = outcomeShownAt(answerAt);
      expect(shownAt - answerAt, `answer at ${answerAt} ms`).toBeLessThanOrEqual(1_500);
      expect(shownAt).toBeGreaterThanOrEqual(answerAt);
    }
  });

  it('still runs every step, in order, after the answer', () => {
    const answered = { at: 0, index: 0 };
    const ends = PROGRESS_STEPS.map((_step, index) => stepEndsAt({ index, startedAt: 0, answered }));
    expect(ends).toEqual([...ends].sort((a, b) => a - b));
    expect(new Set(ends).size).toBe(PROGRESS_STEPS.length);
  });

  it('never makes a step longer than it was because the answer arrived', () => {
    expect(stepEndsAt({ index: SEARCHING, startedAt: 0, answered: { at: 193_400, index: SEARCHING } })).toBe(
      193_500,
    );
    expect(stepEndsAt({ index: CONNECTING, startedAt: 5_000, answered: { at: 2_000, index: 0 } })).toBe(
      3_000,
    );
  });

  it('knows the last step', () => {
    expect(isLastStep(SEARCHING)).toBe(false);
    expect(isLastStep(CONNECTING)).toBe(true);
  });
});
