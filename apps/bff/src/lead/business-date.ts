/** Today's calendar date ('YYYY-MM-DD') in the business time zone, for pay-date and age rules. */
export function businessDate(now: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
  return parts;
}
