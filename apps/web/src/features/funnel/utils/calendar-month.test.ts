import { describe, expect, it } from 'vitest';
import { clampDate, endOfMonth, monthWeeks, startOfMonth, weekEdge } from './calendar-month';

describe('monthWeeks', () => {
  it('lays a month out in Sunday-first weeks', () => {
    // November 2026 starts on a Sunday and has 30 days.
    const weeks = monthWeeks(2026, 11);
    expect(weeks).toHaveLength(5);
    expect(weeks[0]).toEqual([
      '2026-11-01',
      '2026-11-02',
      '2026-11-03',
      '2026-11-04',
      '2026-11-05',
      '2026-11-06',
      '2026-11-07',
    ]);
    expect(weeks[4]).toEqual(['2026-11-29', '2026-11-30', null, null, null, null, null]);
  });

  it('pads the days before the first with null', () => {
    // December 2026 starts on a Tuesday.
    expect(monthWeeks(2026, 12)[0]?.slice(0, 3)).toEqual([null, null, '2026-12-01']);
  });
});

describe('month and week edges', () => {
  it('finds the first and last day of a month, leap years included', () => {
    expect(startOfMonth('2028-02-17')).toBe('2028-02-01');
    expect(endOfMonth('2028-02-17')).toBe('2028-02-29');
  });

  it('finds the Sunday and Saturday around a day', () => {
    expect(weekEdge('2026-11-25', 'start')).toBe('2026-11-22');
    expect(weekEdge('2026-11-25', 'end')).toBe('2026-11-28');
  });

  it('clamps a day into a range', () => {
    expect(clampDate('2026-10-31', '2026-11-01', '2026-12-31')).toBe('2026-11-01');
    expect(clampDate('2027-01-01', '2026-11-01', '2026-12-31')).toBe('2026-12-31');
    expect(clampDate('2026-11-15', '2026-11-01', '2026-12-31')).toBe('2026-11-15');
  });
});
