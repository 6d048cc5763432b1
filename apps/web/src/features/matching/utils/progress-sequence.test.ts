import { describe, expect, it } from 'vitest';
import { PROGRESS_STEPS, introStatuses, isLastStep, stepEndsAt } from './progress-sequence';

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

  it('cuts the step showing to 1 s once the answer arrives', () => {
    expect(stepEndsAt({ index: SEARCHING, startedAt: 0, answeredAt: 20_000 })).toBe(20_000 + 1_000 + 500);
  });

  it('never makes a step longer than it was because the answer arrived', () => {
    expect(stepEndsAt({ index: SEARCHING, startedAt: 0, answeredAt: 193_200 })).toBe(193_500);
    expect(stepEndsAt({ index: CONNECTING, startedAt: 5_000, answeredAt: 2_000 })).toBe(6_000);
    expect(stepEndsAt({ index: 0, startedAt: 0, answeredAt: 0 })).toBe(1_500);
  });

  it('knows the last step', () => {
    expect(isLastStep(SEARCHING)).toBe(false);
    expect(isLastStep(CONNECTING)).toBe(true);
  });
});
