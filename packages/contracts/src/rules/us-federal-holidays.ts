import { addDays, daysInMonth, formatIsoDate, parseIsoDate, weekday } from './calendar-date.js';

/** The eleven US federal holidays on which the Federal Reserve Banks close (5 U.S.C. § 6103). */
export type FederalHolidayName =
  | "New Year's Day"
  | 'Martin Luther King, Jr. Day'
  | "Washington's Birthday (Presidents' Day)"
  | 'Memorial Day'
  | 'Juneteenth National Independence Day'
  | 'Independence Day'
  | 'Labor Day'
  | 'Columbus Day'
  | 'Veterans Day'
  | 'Thanksgiving Day'
  | 'Christmas Day';

/** One federal holiday of a year. */
export interface FederalBankHoliday {
  name: FederalHolidayName;
  /** The legal holiday itself, 'YYYY-MM-DD'. */
  date: string;
  /**
   * The weekday on which the Federal Reserve Banks are closed for it: `date` on Monday–Friday, the following
   * Monday when `date` is a Sunday, and `null` when `date` is a Saturday (the Banks stay open on the Friday).
   */
  closedOn: string | null;
}

const SUNDAY = 0;
const MONDAY = 1;
const THURSDAY = 4;
const SATURDAY = 6;

/** Juneteenth became a federal holiday on 2021-06-17 (Pub. L. 117-17). */
const JUNETEENTH_FIRST_YEAR = 2021;

/**
 * The federal holidays of `year` as the Federal Reserve observes them (the calendar ACH and wire transfers run
 * on, so the one that decides whether pay can arrive).
 *
 * The Fed's rule differs from the federal-employee rule of 5 U.S.C. § 6103(b): a holiday on a Sunday is
 * observed on the following Monday, but for a holiday on a Saturday "Federal Reserve Banks and Branches will be
 * open the preceding Friday" (federalreserve.gov, Holidays Observed by the Federal Reserve System). So
 * Juneteenth 2027 (Saturday) closes nothing, and Friday 2027-12-31 is a business day although New Year's Day
 * 2028 falls on a Saturday.
 */
export function federalBankHolidays(year: number): FederalBankHoliday[] {
  const holidays: [FederalHolidayName, string | null][] = [
    ["New Year's Day", fixed(year, 1, 1)],
    ['Martin Luther King, Jr. Day', nthWeekday(year, 1, MONDAY, 3)],
    ["Washington's Birthday (Presidents' Day)", nthWeekday(year, 2, MONDAY, 3)],
    ['Memorial Day', lastWeekday(year, 5, MONDAY)],
    ['Juneteenth National Independence Day', year >= JUNETEENTH_FIRST_YEAR ? fixed(year, 6, 19) : null],
    ['Independence Day', fixed(year, 7, 4)],
    ['Labor Day', nthWeekday(year, 9, MONDAY, 1)],
    ['Columbus Day', nthWeekday(year, 10, MONDAY, 2)],
    ['Veterans Day', fixed(year, 11, 11)],
    ['Thanksgiving Day', nthWeekday(year, 11, THURSDAY, 4)],
    ['Christmas Day', fixed(year, 12, 25)],
  ];
  return holidays.flatMap(([name, date]) =>
    date === null ? [] : [{ name, date, closedOn: fedClosure(date) }],
  );
}

/**
 * True when `dateIso` is a federal holiday or the Monday on which the Federal Reserve observes one that fell on
 * a Sunday. A Friday before a Saturday holiday is not (see {@link federalBankHolidays}).
 */
export function isFederalBankHoliday(dateIso: string): boolean {
  const { year } = parseIsoDate(dateIso);
  // A Sunday holiday is observed on the next day, which is always in the same year (Dec 31 is never one),
  // and Saturday holidays move nowhere, so one year's list is enough.
  return federalBankHolidays(year).some(({ date, closedOn }) => date === dateIso || closedOn === dateIso);
}

function fedClosure(date: string): string | null {
  switch (weekday(date)) {
    case SATURDAY:
      return null;
    case SUNDAY:
      return addDays(date, 1);
    default:
      return date;
  }
}

function fixed(year: number, month: number, day: number): string {
  return formatIsoDate({ year, month, day });
}

/** The `n`-th (1-based) `dayOfWeek` of a month, e.g. the third Monday of January. */
function nthWeekday(year: number, month: number, dayOfWeek: number, n: number): string {
  const first = fixed(year, month, 1);
  const offset = (dayOfWeek - weekday(first) + 7) % 7;
  return addDays(first, offset + (n - 1) * 7);
}

/** The last `dayOfWeek` of a month, e.g. the last Monday of May. */
function lastWeekday(year: number, month: number, dayOfWeek: number): string {
  const last = fixed(year, month, daysInMonth(year, month));
  return addDays(last, -((weekday(last) - dayOfWeek + 7) % 7));
}
