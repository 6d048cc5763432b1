const HOUR_MS = 3600_000;

/** The calendar day at `now` in `timeZone`, YYYY-MM-DD: daily caps count per business day. */
export function dayIn(timeZone: string, now: number): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(now);
}

/**
 * The Redis counters of a buyer's caps for the windows `now` falls in (the hour, and `day`: {@link dayIn} the
 * buyers' time zone): the worker takes places in them, the console reads their use (ADR 0022).
 */
export function buyerCapKeys(
  keyPrefix: string,
  buyer: string,
  now: number,
  day: string,
): { hourKey: string; dayKey: string } {
  return {
    hourKey: `${keyPrefix}buyer-cap:${buyer}:hour:${Math.floor(now / HOUR_MS)}`,
    dayKey: `${keyPrefix}buyer-cap:${buyer}:day:${day}`,
  };
}
