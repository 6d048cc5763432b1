import { addDays, addMonths, isIsoDate, isWeekend } from './calendar-date.js';
import { federalBankHolidays, isFederalBankHoliday } from './us-federal-holidays.js';
import { parseIsoDate } from './calendar-date.js';

/** How far ahead a next pay date may be chosen, in days (docs/product-rules.md §pay-dates: today to 30 days ahead). */
export const PAY_DATE_WINDOW_DAYS = 30;

/** The first and last day (inclusive, 'YYYY-MM-DD') a next pay date may fall on. */
export interface PayDateWindow {
  first: string;
  last: string;
}

type PayFrequency = 'BIWEEKLY' | 'TWICEMONTHLY' | 'MONTHLY' | 'WEEKLY';

/** Spec §4. Twice-monthly is +14 days as observed, not the 1st/15th convention. */
const PAY_PERIOD: Record<PayFrequency, { days: number } | { months: number }> = {
  WEEKLY: { days: 7 },
  BIWEEKLY: { days: 14 },
  TWICEMONTHLY: { days: 14 },
  MONTHLY: { months: 1 },
};

/** The selectable range for the next pay date: today through today + 30 days. */
export function payDateWindow(todayIso: string): PayDateWindow {
  return { first: todayIso, last: addDays(todayIso, PAY_DATE_WINDOW_DAYS) };
}

/** True on a day banks settle payments: Monday–Friday and not a Federal Reserve holiday. */
export function isBankBusinessDay(dateIso: string): boolean {
  return !isWeekend(dateIso) && !isFederalBankHoliday(dateIso);
}

/** `dateIso` itself if it is a bank business day, else the next one. */
export function nextBankBusinessDay(dateIso: string): string {
  let date = dateIso;
  while (!isBankBusinessDay(date)) date = addDays(date, 1);
  return date;
}

/**
 * True when `dateIso` may be picked as the next pay date on `todayIso`: inside {@link payDateWindow} and a bank
 * business day (pay does not arrive on weekends or federal bank holidays). Malformed dates give `false`.
 */
export function isSelectablePayDate(dateIso: string, todayIso: string): boolean {
  if (!isIsoDate(dateIso) || !isIsoDate(todayIso)) return false;
  const { first, last } = payDateWindow(todayIso);
  return dateIso >= first && dateIso <= last && isBankBusinessDay(dateIso);
}

/** The last day of the window that may be picked (the window's last day may be a weekend or a holiday). */
export function lastSelectablePayDate(todayIso: string): string {
  const { first, last } = payDateWindow(todayIso);
  let date = last;
  while (date > first && !isSelectablePayDate(date, todayIso)) date = addDays(date, -1);
  return date;
}

/**
 * Why `dateIso` cannot be picked on `todayIso`, in words a borrower reads after tapping a crossed-out day
 * (issue 25); undefined when it can. 'a weekend', 'a bank holiday (Christmas Day)', 'before today' or 'more than
 * 30 days ahead'.
 */
export function unavailablePayDateReason(dateIso: string, todayIso: string): string | undefined {
  if (isSelectablePayDate(dateIso, todayIso)) return undefined;
  const { first, last } = payDateWindow(todayIso);
  if (dateIso < first) return 'before today';
  if (dateIso > last) return `more than ${PAY_DATE_WINDOW_DAYS} days ahead`;
  if (isWeekend(dateIso)) return 'a weekend';
  const holiday = federalBankHolidays(parseIsoDate(dateIso).year).find(
    ({ date, closedOn }) => date === dateIso || closedOn === dateIso,
  );
  return holiday ? `a bank holiday (${holiday.name})` : 'not a bank business day';
}

/**
 * The pay date after `firstIso` for a pay frequency (spec §4): weekly +7 days, biweekly and twice-monthly
 * +14 days, monthly +1 month (Jan 31 → Feb 28/29). A result on a weekend moves to the following Monday, as the
 * spec says; a result on a federal bank holiday also moves to the next business day, because no employer's
 * payroll can settle on one, and the lenders schedule repayment from this date.
 */
export function secondPayDate(firstIso: string, frequency: PayFrequency): string {
  const period = PAY_PERIOD[frequency];
  const raw = 'days' in period ? addDays(firstIso, period.days) : addMonths(firstIso, period.months);
  return nextBankBusinessDay(raw);
}
