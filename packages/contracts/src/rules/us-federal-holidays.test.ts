import { describe, expect, it } from 'vitest';
import { federalBankHolidays, isFederalBankHoliday } from './us-federal-holidays.js';

/** [legal date, Federal Reserve closure] per year, from the Fed's published holiday schedules. */
const EXPECTED: Record<number, [string, string | null][]> = {
  2025: [
    ['2025-01-01', '2025-01-01'],
    ['2025-01-20', '2025-01-20'],
    ['2025-02-17', '2025-02-17'],
    ['2025-05-26', '2025-05-26'],
    ['2025-06-19', '2025-06-19'],
    ['2025-07-04', '2025-07-04'],
    ['2025-09-01', '2025-09-01'],
    ['2025-10-13', '2025-10-13'],
    ['2025-11-11', '2025-11-11'],
    ['2025-11-27', '2025-11-27'],
    ['2025-12-25', '2025-12-25'],
  ],
  2026: [
    ['2026-01-01', '2026-01-01'],
    ['2026-01-19', '2026-01-19'],
    ['2026-02-16', '2026-02-16'],
    ['2026-05-25', '2026-05-25'],
    ['2026-06-19', '2026-06-19'],
    ['2026-07-04', null],
    ['2026-09-07', '2026-09-07'],
    ['2026-10-12', '2026-10-12'],
    ['2026-11-11', '2026-11-11'],
    ['2026-11-26', '2026-11-26'],
    ['2026-12-25', '2026-12-25'],
  ],
  2027: [
    ['2027-01-01', '2027-01-01'],
    ['2027-01-18', '2027-01-18'],
    ['2027-02-15', '2027-02-15'],
    ['2027-05-31', '2027-05-31'],
    ['2027-06-19', null],
    ['2027-07-04', '2027-07-05'],
    ['2027-09-06', '2027-09-06'],
    ['2027-10-11', '2027-10-11'],
    ['2027-11-11', '2027-11-11'],
    ['2027-11-25', '2027-11-25'],
    ['2027-12-25', null],
  ],
};

describe('federalBankHolidays', () => {
  it.each([2025, 2026, 2027])('lists the eleven holidays of %i with the Fed closure days', (year) => {
    expect(federalBankHolidays(year).map(({ date, closedOn }) => [date, closedOn])).toEqual(EXPECTED[year]);
  });

  it('names them', () => {
    expect(federalBankHolidays(2025).map(({ name }) => name)).toEqual([
      "New Year's Day",
      'Martin Luther King, Jr. Day',
      "Washington's Birthday (Presidents' Day)",
      'Memorial Day',
      'Juneteenth National Independence Day',
      'Independence Day',
      'Labor Day',
      'Columbus Day',
      'Veterans Day',
      'Thanksgiving Day',
      'Christmas Day',
    ]);
  });

  it('has no Juneteenth before it became a holiday in 2021', () => {
    expect(federalBankHolidays(2020).map(({ name }) => name)).not.toContain(
      'Juneteenth National Independence Day',
    );
    expect(federalBankHolidays(2020)).toHaveLength(10);
    expect(federalBankHolidays(2021)).toHaveLength(11);
  });

  it('observes a Sunday holiday on the Monday (Christmas 2022, New Year 2023)', () => {
    expect(federalBankHolidays(2022).find(({ name }) => name === 'Christmas Day')?.closedOn).toBe(
      '2022-12-26',
    );
    expect(federalBankHolidays(2023)[0]?.closedOn).toBe('2023-01-02');
  });

  it('puts New Year 2028 on a Saturday with no closure', () => {
    expect(federalBankHolidays(2028)[0]).toEqual({
      name: "New Year's Day",
      date: '2028-01-01',
      closedOn: null,
    });
  });
});

describe('isFederalBankHoliday', () => {
  it('is true on a holiday on a weekday', () => {
    expect(isFederalBankHoliday('2025-06-19')).toBe(true);
    expect(isFederalBankHoliday('2025-11-27')).toBe(true);
    expect(isFederalBankHoliday('2026-01-19')).toBe(true);
  });

  it('is false on ordinary days, including the day after Thanksgiving and Christmas Eve', () => {
    expect(isFederalBankHoliday('2025-06-18')).toBe(false);
    expect(isFederalBankHoliday('2025-11-28')).toBe(false);
    expect(isFederalBankHoliday('2025-12-24')).toBe(false);
  });

  it('is true on the Monday after a Sunday holiday', () => {
    expect(isFederalBankHoliday('2027-07-04')).toBe(true);
    expect(isFederalBankHoliday('2027-07-05')).toBe(true);
  });

  it('is false on the Friday before a Saturday holiday: the Fed does not observe it', () => {
    // Juneteenth 2027, Independence Day 2026, Christmas 2027 and New Year 2028 fall on Saturdays.
    expect(isFederalBankHoliday('2027-06-18')).toBe(false);
    expect(isFederalBankHoliday('2026-07-03')).toBe(false);
    expect(isFederalBankHoliday('2027-12-24')).toBe(false);
    expect(isFederalBankHoliday('2027-12-31')).toBe(false);
  });

  it('is false on the Monday after a Saturday holiday', () => {
    expect(isFederalBankHoliday('2027-06-21')).toBe(false);
    expect(isFederalBankHoliday('2027-12-27')).toBe(false);
    expect(isFederalBankHoliday('2028-01-03')).toBe(false);
  });

  it('is true on the Saturday holiday itself', () => {
    expect(isFederalBankHoliday('2027-12-25')).toBe(true);
    expect(isFederalBankHoliday('2028-01-01')).toBe(true);
  });
});
