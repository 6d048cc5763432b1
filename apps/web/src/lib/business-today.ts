/**
 * The BFF checks ages and pay dates against today in its business time zone (BUSINESS_TIME_ZONE). The browser
 * uses the same calendar day, so every date it offers is one the BFF accepts, wherever the visitor is. The zone
 * comes from GET /api/v1/config (`setBusinessTimeZone`, called when the configuration arrives; the root layout
 * holds funnel screens until then); the BFF's default stands in only if the configuration cannot be read.
 *
 * The formatter is made when a date is first asked for, not when the module loads: the first `Intl.DateTimeFormat`
 * with a time zone loads the browser's time-zone data, tens of milliseconds of main thread on a phone, which every
 * first screen paid while it hydrated (docs/adr/0019-html-first-borrower-screens.md) though most never show a date.
 */
const FALLBACK_TIME_ZONE = 'America/New_York';

let isoDay: Intl.DateTimeFormat | undefined;
/** The zone last named by the configuration, not yet turned into a formatter. */
let pendingZone: string | undefined;

// en-CA formats a date as YYYY-MM-DD.
function formatterFor(timeZone: string): Intl.DateTimeFormat {
  return new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
}

/** Uses `timeZone` (an IANA name from the BFF) for {@link businessToday}; an unknown name keeps the current one. */
export function setBusinessTimeZone(timeZone: string): void {
  pendingZone = timeZone;
}

function formatter(): Intl.DateTimeFormat {
  if (pendingZone !== undefined) {
    const zone = pendingZone;
    pendingZone = undefined;
    try {
      isoDay = formatterFor(zone);
    } catch {
      // Intl refuses names it does not know; the day of the zone in use is still the best guess.
    }
  }
  return (isoDay ??= formatterFor(FALLBACK_TIME_ZONE));
}

/** Today in the business time zone, 'YYYY-MM-DD'. */
export function businessToday(now: Date = new Date()): string {
  return formatter().format(now);
}
