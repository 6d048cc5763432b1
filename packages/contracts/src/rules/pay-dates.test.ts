import { describe, expect, it } from 'vitest';
import {
  isBankBusinessDay,
  isSelectablePayDate,
  nextBankBusinessDay,
  payDateWindow,
  lastSelectablePayDate,
  secondPayDate,
  unavailablePayDateReason,
} from './pay-dates.js';

describe('payDateWindow', () => {
  it('runs from today to today + 30 days', () => {
    expect(payDateWindow('2025-06-16')).toEqual({ first: '2025-06-16', last: '2025-07-16' });
  });

  it('crosses month and year ends', () => {
    expect(payDateWindow('2025-01-30')).toEqual({ first: '2025-01-30', last: '2025-03-01' });
    expect(payDateWindow('2024-01-30')).toEqual({ first: '2024-01-30', last: '2024-02-29' });
    expect(payDateWindow('2025-12-15')).toEqual({ first: '2025-12-15', last: '2026-01-14' });
  });
});

describe('isSelectablePayDate', () => {
  // Monday 2025-06-16.
  const today = '2025-06-16';

  it('accepts today when it is a business day', () => {
    expect(isSelectablePayDate(today, today)).toBe(true);
  });

  it('accepts today + 30 days and rejects today + 31', () => {
    expect(isSelectablePayDate('2025-07-16', today)).toBe(true);
    expect(isSelectablePayDate('2025-07-17', today)).toBe(false);
  });

  it('rejects days before today', () => {
    expect(isSelectablePayDate('2025-06-13', today)).toBe(false);
  });

  it('rejects weekends', () => {
    expect(isSelectablePayDate('2025-06-21', today)).toBe(false);
    expect(isSelectablePayDate('2025-06-22', today)).toBe(false);
    expect(isSelectablePayDate('2025-06-23', today)).toBe(true);
  });

  it('rejects federal bank holidays', () => {
    expect(isSelectablePayDate('2025-06-19', today)).toBe(false);
    expect(isSelectablePayDate('2025-07-04', today)).toBe(false);
    expect(isSelectablePayDate('2025-07-03', today)).toBe(true);
  });

  it('rejects today when it is a weekend day or a holiday', () => {
    expect(isSelectablePayDate('2025-06-14', '2025-06-14')).toBe(false);
    expect(isSelectablePayDate('2025-07-04', '2025-07-04')).toBe(false);
  });

  it('follows the window across February', () => {
    // 2025-03-01 is today + 30 but a Saturday; Feb 28 is the last choice.
    expect(isSelectablePayDate('2025-02-28', '2025-01-30')).toBe(true);
    expect(isSelectablePayDate('2025-03-01', '2025-01-30')).toBe(false);
    expect(isSelectablePayDate('2025-03-03', '2025-01-30')).toBe(false);
    // Leap year: Feb 29 2024 (Thursday) is today + 30, Mar 1 is today + 31.
    expect(isSelectablePayDate('2024-02-29', '2024-01-30')).toBe(true);
    expect(isSelectablePayDate('2024-03-01', '2024-01-30')).toBe(false);
  });

  it('keeps the Fridays before Saturday holidays and the Mondays after them', () => {
    const today = '2027-12-20';
    expect(isSelectablePayDate('2027-12-24', today)).toBe(true);
    expect(isSelectablePayDate('2027-12-27', today)).toBe(true);
    expect(isSelectablePayDate('2027-12-31', today)).toBe(true);
    expect(isSelectablePayDate('2028-01-03', today)).toBe(true);
  });

  it('closes the Monday after a Sunday holiday', () => {
    expect(isSelectablePayDate('2027-07-05', '2027-06-28')).toBe(false);
  });

  it('rejects malformed dates', () => {
    expect(isSelectablePayDate('2025-06-31', today)).toBe(false);
    expect(isSelectablePayDate('06/17/2025', today)).toBe(false);
    expect(isSelectablePayDate('2025-06-17', 'yesterday')).toBe(false);
  });
});

describe('bank business days', () => {
  it('skips weekends and holidays', () => {
    expect(isBankBusinessDay('2025-09-01')).toBe(false);
    expect(nextBankBusinessDay('2025-08-30')).toBe('2025-09-02');
    expect(nextBankBusinessDay('2025-09-02')).toBe('2025-09-02');
  });
});

describe('secondPayDate', () => {
  it('adds 7 days for WEEKLY', () => {
    expect(secondPayDate('2025-06-16', 'WEEKLY')).toBe('2025-06-23');
  });

  it('adds 14 days for BIWEEKLY and TWICEMONTHLY', () => {
    expect(secondPayDate('2025-06-13', 'BIWEEKLY')).toBe('2025-06-27');
    expect(secondPayDate('2025-06-13', 'TWICEMONTHLY')).toBe('2025-06-27');
    expect(secondPayDate('2025-12-26', 'BIWEEKLY')).toBe('2026-01-09');
  });

  it('adds one month for MONTHLY, clamped to the month end', () => {
    expect(secondPayDate('2025-06-13', 'MONTHLY')).toBe('2025-07-14');
    expect(secondPayDate('2025-01-31', 'MONTHLY')).toBe('2025-02-28');
    expect(secondPayDate('2024-01-31', 'MONTHLY')).toBe('2024-02-29');
    expect(secondPayDate('2025-03-31', 'MONTHLY')).toBe('2025-04-30');
  });

  it('moves a Saturday or Sunday to the following Monday', () => {
    // 2025-06-14 is a Saturday, 2025-06-15 a Sunday.
    expect(secondPayDate('2025-05-14', 'MONTHLY')).toBe('2025-06-16');
    expect(secondPayDate('2025-05-15', 'MONTHLY')).toBe('2025-06-16');
    // 2025-11-30 is a Sunday.
    expect(secondPayDate('2025-10-31', 'MONTHLY')).toBe('2025-12-01');
  });

  it('moves a federal bank holiday to the next business day', () => {
    expect(secondPayDate('2025-06-12', 'WEEKLY')).toBe('2025-06-20');
    expect(secondPayDate('2025-11-13', 'BIWEEKLY')).toBe('2025-11-28');
    expect(secondPayDate('2027-06-28', 'WEEKLY')).toBe('2027-07-06');
  });

  it('moves a Sunday month end past a Monday holiday', () => {
    // 2025-08-31 is a Sunday and 2025-09-01 Labor Day.
    expect(secondPayDate('2025-07-31', 'MONTHLY')).toBe('2025-09-02');
  });

  it('keeps the Monday after a Saturday holiday, which the Fed does not observe', () => {
    expect(secondPayDate('2027-12-13', 'BIWEEKLY')).toBe('2027-12-27');
  });
});

describe('what a borrower is told about a day they cannot pick (issue 25)', () => {
  // Thursday 2026-11-25: the window ends on Friday 2026-12-25, Christmas Day.
  const today = '2026-11-25';

  it('names the last day that can really be picked', () => {
    expect(payDateWindow(today).last).toBe('2026-12-25');
    expect(lastSelectablePayDate(today)).toBe('2026-12-24');
    // A window ending on a weekday business day ends there.
    expect(lastSelectablePayDate('2026-11-10')).toBe('2026-12-10');
  });

  it('says why a day is unavailable', () => {
    expect(unavailablePayDateReason('2026-12-25', today)).toBe('a bank holiday (Christmas Day)');
    expect(unavailablePayDateReason('2026-11-26', today)).toBe('a bank holiday (Thanksgiving Day)');
    expect(unavailablePayDateReason('2026-11-28', today)).toBe('a weekend');
    expect(unavailablePayDateReason('2026-11-24', today)).toBe('before today');
    expect(unavailablePayDateReason('2026-12-28', today)).toBe('more than 30 days ahead');
    expect(unavailablePayDateReason('2026-11-30', today)).toBeUndefined();
  });
});
