import { formatIsoDate, isIsoDate, isLeapYear, parseIsoDate } from './calendar-date.js';

/**
 * True when a person born on `dobIso` has had their `years`-th birthday on or before `todayIso`
 * (both 'YYYY-MM-DD'). Checked on the whole date, not on the year alone (docs/product-rules.md §date-of-birth).
 *
 * Someone born on February 29 reaches an age in a common year on March 1, not February 28: that is the day
 * the full number of years has passed (the common-law and UK statutory reading), so nobody is treated as 18
 * a day early. Invalid dates give `false`.
 */
export function isAtLeastAge(dobIso: string, todayIso: string, years = 18): boolean {
  if (!isIsoDate(dobIso) || !isIsoDate(todayIso)) return false;
  const dob = parseIsoDate(dobIso);
  const year = dob.year + years;
  const leapling = dob.month === 2 && dob.day === 29 && !isLeapYear(year);
  const birthday = formatIsoDate(
    leapling ? { year, month: 3, day: 1 } : { year, month: dob.month, day: dob.day },
  );
  // 'YYYY-MM-DD' strings order like the dates they name.
  return birthday <= todayIso;
}
