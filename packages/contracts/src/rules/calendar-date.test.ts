import { describe, expect, it } from 'vitest';
import {
  addDays,
  addMonths,
  daysInMonth,
  formatIsoDate,
  isIsoDate,
  isLeapYear,
  isWeekend,
  parseIsoDate,
  weekday,
} from './calendar-date.js';

describe('isIsoDate / parseIsoDate', () => {
  it('accepts real calendar days', () => {
    expect(isIsoDate('2025-06-15')).toBe(true);
    expect(isIsoDate('2024-02-29')).toBe(true);
    expect(parseIsoDate('2024-02-29')).toEqual({ year: 2024, month: 2, day: 29 });
  });

  it.each([
    '2025-02-29',
    '1900-02-29',
    '2025-04-31',
    '2025-13-01',
    '2025-00-10',
    '2025-01-00',
    '2025-6-15',
    '20250615',
    '2025-06-15T00:00:00Z',
    '',
  ])('rejects %j', (value) => {
    expect(isIsoDate(value)).toBe(false);
    expect(() => parseIsoDate(value)).toThrow(RangeError);
  });

  it('round-trips through formatIsoDate, zero-padding', () => {
    expect(formatIsoDate({ year: 2025, month: 1, day: 5 })).toBe('2025-01-05');
    expect(formatIsoDate(parseIsoDate('0099-12-31'))).toBe('0099-12-31');
  });
});

describe('leap years and month lengths', () => {
  it('follows the Gregorian rules', () => {
    expect([1900, 2000, 2024, 2025, 2100].map(isLeapYear)).toEqual([false, true, true, false, false]);
  });

  it('knows each month length', () => {
    expect(daysInMonth(2025, 2)).toBe(28);
    expect(daysInMonth(2024, 2)).toBe(29);
    expect(daysInMonth(2025, 4)).toBe(30);
    expect(daysInMonth(2025, 12)).toBe(31);
  });
});

describe('addDays', () => {
  it('crosses month and year ends', () => {
    expect(addDays('2025-01-31', 1)).toBe('2025-02-01');
    expect(addDays('2025-12-31', 1)).toBe('2026-01-01');
    expect(addDays('2025-02-28', 1)).toBe('2025-03-01');
    expect(addDays('2024-02-28', 1)).toBe('2024-02-29');
    expect(addDays('2025-06-16', 30)).toBe('2025-07-16');
  });

  it('goes backwards', () => {
    expect(addDays('2025-03-01', -1)).toBe('2025-02-28');
  });

  it('does not treat years below 100 as 19xx', () => {
    expect(addDays('0099-12-31', 1)).toBe('0100-01-01');
  });

  it('is not shifted by daylight-saving changes', () => {
    // US DST started 2025-03-09 and ended 2025-11-02.
    expect(addDays('2025-03-08', 1)).toBe('2025-03-09');
    expect(addDays('2025-03-09', 1)).toBe('2025-03-10');
    expect(addDays('2025-11-01', 2)).toBe('2025-11-03');
  });
});

describe('addMonths', () => {
  it('keeps the day of the month', () => {
    expect(addMonths('2025-01-15', 1)).toBe('2025-02-15');
    expect(addMonths('2025-12-15', 1)).toBe('2026-01-15');
    expect(addMonths('2025-01-15', -1)).toBe('2024-12-15');
    expect(addMonths('2025-01-15', 14)).toBe('2026-03-15');
  });

  it('clamps to the end of a shorter month', () => {
    expect(addMonths('2025-01-31', 1)).toBe('2025-02-28');
    expect(addMonths('2024-01-31', 1)).toBe('2024-02-29');
    expect(addMonths('2025-03-31', 1)).toBe('2025-04-30');
    expect(addMonths('2025-03-31', -1)).toBe('2025-02-28');
    expect(addMonths('2024-02-29', 12)).toBe('2025-02-28');
  });
});

describe('weekday / isWeekend', () => {
  it('numbers days from Sunday = 0', () => {
    expect(weekday('2025-06-15')).toBe(0);
    expect(weekday('2025-06-16')).toBe(1);
    expect(weekday('2025-06-21')).toBe(6);
  });

  it('knows weekends', () => {
    expect(isWeekend('2025-06-14')).toBe(true);
    expect(isWeekend('2025-06-15')).toBe(true);
    expect(isWeekend('2025-06-16')).toBe(false);
    expect(isWeekend('2025-06-20')).toBe(false);
  });
});
