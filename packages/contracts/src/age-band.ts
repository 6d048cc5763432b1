import { parseIsoDate } from './rules/calendar-date.js';

/** Age bands of the ping: the borrower's age in whole years on the ping's date, never the birth date. */
export const AGE_BANDS = ['18-24', '25-34', '35-44', '45-54', '55-64', '65+'] as const;
export type AgeBand = (typeof AGE_BANDS)[number];

/** The borrower's age band on `today` (both YYYY-MM-DD). */
export function ageBandOn(dob: string, today: string): AgeBand {
  const born = parseIsoDate(dob);
  const now = parseIsoDate(today);
  const hadBirthday = now.month > born.month || (now.month === born.month && now.day >= born.day);
  const age = now.year - born.year - (hadBirthday ? 0 : 1);
  if (age < 25) return '18-24';
  if (age < 35) return '25-34';
  if (age < 45) return '35-44';
  if (age < 55) return '45-54';
  if (age < 65) return '55-64';
  return '65+';
}
