import { describe, expect, it } from 'vitest';
import { isAtLeastAge } from './age.js';

describe('isAtLeastAge', () => {
  it('is false the day before the 18th birthday and true on it', () => {
    expect(isAtLeastAge('2007-06-15', '2025-06-14')).toBe(false);
    expect(isAtLeastAge('2007-06-15', '2025-06-15')).toBe(true);
    expect(isAtLeastAge('2007-06-15', '2025-06-16')).toBe(true);
  });

  it('checks the whole date, not the year alone', () => {
    // 2025 − 2007 = 18, but the birthday is still to come.
    expect(isAtLeastAge('2007-12-31', '2025-01-01')).toBe(false);
    expect(isAtLeastAge('2007-01-01', '2025-01-01')).toBe(true);
  });

  it('counts the years across a month end', () => {
    expect(isAtLeastAge('2007-03-01', '2025-02-28')).toBe(false);
    expect(isAtLeastAge('2007-03-01', '2025-03-01')).toBe(true);
  });

  describe('born on February 29', () => {
    // 18 is not a multiple of 4, so an 18th birthday of a leap-day baby always falls in a common year.
    it('turns 18 on March 1, not February 28', () => {
      expect(isAtLeastAge('2008-02-29', '2026-02-28')).toBe(false);
      expect(isAtLeastAge('2008-02-29', '2026-03-01')).toBe(true);
    });

    it('has the birthday on February 29 itself in a leap year', () => {
      expect(isAtLeastAge('2008-02-29', '2028-02-28', 20)).toBe(false);
      expect(isAtLeastAge('2008-02-29', '2028-02-29', 20)).toBe(true);
    });
  });

  it('honours another age', () => {
    expect(isAtLeastAge('2004-05-10', '2025-05-09', 21)).toBe(false);
    expect(isAtLeastAge('2004-05-10', '2025-05-10', 21)).toBe(true);
  });

  it('is false for a birth date in the future', () => {
    expect(isAtLeastAge('2030-01-01', '2025-01-01')).toBe(false);
  });

  it.each([
    ['2007-02-30', '2025-06-01'],
    ['2007-6-15', '2025-06-01'],
    ['', '2025-06-01'],
    ['2000-01-01', 'today'],
  ])('is false for invalid dates (%j, %j)', (dob, today) => {
    expect(isAtLeastAge(dob, today)).toBe(false);
  });
});
