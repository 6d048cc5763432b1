/**
 * The BFF checks ages and pay dates against today in its business time zone (BUSINESS_TIME_ZONE, New York by
 * default). The browser uses the same calendar day, so every date it offers is one the BFF accepts, wherever the
 * visitor is.
 */
const BUSINESS_TIME_ZONE = 'America/New_York';

// en-CA formats a date as YYYY-MM-DD.
const isoDay = new Intl.DateTimeFormat('en-CA', {
  timeZone: BUSINESS_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
});

/** Today in the business time zone, 'YYYY-MM-DD'. */
export function businessToday(now: Date = new Date()): string {
  return isoDay.format(now);
}
