/**
 * Calendar dates as 'YYYY-MM-DD' strings. Dates are wall-calendar days with no time zone, so all arithmetic
 * runs on UTC midnights: a local-time `Date` would shift a day across DST changes and time zones.
 * "Today" is always passed in by the caller (the browser's or the BFF's notion of today), never read here.
 */

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const MS_PER_DAY = 86_400_000;

/** A calendar day split into its parts; `month` is 1–12. */
export interface CalendarDate {
  year: number;
  month: number;
  day: number;
}

/** Days in `month` (1–12) of `year`, leap years included. */
export function daysInMonth(year: number, month: number): number {
  return utcDate(year, month + 1, 0).getUTCDate();
}

/** True for a leap year of the Gregorian calendar. */
export function isLeapYear(year: number): boolean {
  return (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
}

/** True when `value` is 'YYYY-MM-DD' and names a day that exists (no 2025-02-29, no 2025-13-01). */
export function isIsoDate(value: string): boolean {
  return splitIsoDate(value) !== undefined;
}

/** Splits 'YYYY-MM-DD' into its parts. Throws a `RangeError` on anything that is not a real calendar day. */
export function parseIsoDate(value: string): CalendarDate {
  const parts = splitIsoDate(value);
  if (parts === undefined) throw new RangeError(`Not a calendar date (YYYY-MM-DD): ${JSON.stringify(value)}`);
  return parts;
}

/** Formats calendar-date parts as 'YYYY-MM-DD'. */
export function formatIsoDate({ year, month, day }: CalendarDate): string {
  return `${String(year).padStart(4, '0')}-${pad2(month)}-${pad2(day)}`;
}

/** The day `days` days after `iso` (negative: before). */
export function addDays(iso: string, days: number): string {
  const { year, month, day } = parseIsoDate(iso);
  return fromUtcDate(new Date(utcDate(year, month, day).getTime() + days * MS_PER_DAY));
}

/**
 * The same day of the month `months` months after `iso`, clamped to the end of a shorter month:
 * Jan 31 + 1 month is Feb 28 (Feb 29 in a leap year), never Mar 3 as `Date#setUTCMonth` would give.
 */
export function addMonths(iso: string, months: number): string {
  const { year, month, day } = parseIsoDate(iso);
  const monthIndex = year * 12 + (month - 1) + months;
  const targetYear = Math.floor(monthIndex / 12);
  const targetMonth = (monthIndex % 12) + 1;
  return formatIsoDate({
    year: targetYear,
    month: targetMonth,
    day: Math.min(day, daysInMonth(targetYear, targetMonth)),
  });
}

/** Day of the week of `iso`: 0 = Sunday … 6 = Saturday (as `Date#getUTCDay`). */
export function weekday(iso: string): number {
  const { year, month, day } = parseIsoDate(iso);
  return utcDate(year, month, day).getUTCDay();
}

/** True on Saturday and Sunday. */
export function isWeekend(iso: string): boolean {
  const day = weekday(iso);
  return day === 0 || day === 6;
}

function splitIsoDate(value: string): CalendarDate | undefined {
  const match = ISO_DATE.exec(value);
  if (match === null) return undefined;
  const year = Number(match[1]);
  const month = Number(match[2]);
  const day = Number(match[3]);
  if (month < 1 || month > 12 || day < 1 || day > daysInMonth(year, month)) return undefined;
  return { year, month, day };
}

/** UTC midnight of a day; out-of-range months and days roll over as in `Date.UTC`. */
function utcDate(year: number, month: number, day: number): Date {
  const date = new Date(0);
  // setUTCFullYear, not Date.UTC: Date.UTC maps years 0–99 to 1900–1999.
  date.setUTCFullYear(year, month - 1, day);
  return date;
}

function fromUtcDate(date: Date): string {
  return formatIsoDate({
    year: date.getUTCFullYear(),
    month: date.getUTCMonth() + 1,
    day: date.getUTCDate(),
  });
}

function pad2(n: number): string {
  return String(n).padStart(2, '0');
}
