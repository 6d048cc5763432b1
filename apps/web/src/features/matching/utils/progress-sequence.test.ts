import { describe, expect, it } from 'vitest';
import { PROGRESS_STEPS, isLastStep, stepEndsAt } from './progress-sequence';

describe('the matching progress sequence', () => {
  it('searches for 193 s and connects for 0.5 s, each followed by a 0.5 s pause', () => {
    expect(PROGRESS_STEPS.map((step) => step.durationMs)).toEqual([193_000, 500]);
    expect(stepEndsAt({ index: 0, startedAt: 1_000 })).toBe(1_000 + 193_000 + 500);
    expect(stepEndsAt({ index: 1, startedAt: 0 })).toBe(1_000);
  });

  it('cuts the step showing to 1 s once the answer arrives', () => {
    expect(stepEndsAt({ index: 0, startedAt: 0, answeredAt: 20_000 })).toBe(20_000 + 1_000 + 500);
  });

  it('never makes a step longer than it was because the answer arrived', () => {
    expect(stepEndsAt({ index: 0, startedAt: 0, answeredAt: 193_200 })).toBe(193_500);
    expect(stepEndsAt({ index: 1, startedAt: 5_000, answeredAt: 2_000 })).toBe(6_000);
  });

  it('knows the last step', () => {
    expect(isLastStep(0)).toBe(false);
    expect(isLastStep(1)).toBe(true);
  });
});
