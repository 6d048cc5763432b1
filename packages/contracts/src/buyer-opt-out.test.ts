import { describe, expect, it } from 'vitest';
import { businessDaysAfter } from './buyer-opt-out.js';

describe('the day an opt-out must be honoured by', () => {
  it('counts ten weekdays after the request, skipping weekends', () => {
    // Friday 27 November 2026: two weeks later, Friday 11 December.
    expect(businessDaysAfter('2026-11-27T22:10:00.000Z', 10)).toBe('2026-12-11');
    // A Saturday's request counts from the Monday: the second Friday after.
    expect(businessDaysAfter('2026-11-28T09:00:00.000Z', 10)).toBe('2026-12-11');
    // Wednesday: two weeks later, Wednesday.
    expect(businessDaysAfter('2026-12-02T12:00:00.000Z', 10)).toBe('2026-12-16');
  });
});
