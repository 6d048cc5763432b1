// Building an Intl.DateTimeFormat costs far more than formatting with one (it loads the zone's rules), and
// "today" is asked on every step save: keep one formatter per time zone.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** Today's calendar date ('YYYY-MM-DD') in the business time zone, for pay-date and age rules. */
export function businessDate(now: Date, timeZone: string): string {
  let formatter = formatters.get(timeZone);
  if (!formatter) {
    formatter = new Intl.DateTimeFormat('en-CA', {
      timeZone,
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
    });
    formatters.set(timeZone, formatter);
  }
  return formatter.format(now);
}
