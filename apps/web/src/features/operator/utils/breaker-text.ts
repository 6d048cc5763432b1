import type { BuyerHealth } from '@funnel/contracts/buyer-admin';

const clockTime = new Intl.DateTimeFormat(undefined, {
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/**
 * A buyer's breaker as the workers share it: closed, open until a time, then one trial (half-open). The record
 * stays `open` after its cool-down until a lead next reaches the buyer, so an `openUntil` already past (`now`) is
 * said as such instead of as a time to wait for.
 */
export function breakerText({ state, openUntil }: BuyerHealth['breaker'], now = Date.now()): string {
  if (state === 'half-open') return 'Half-open (trial)';
  if (state === 'closed') return 'Closed';
  if (!openUntil) return 'Open';
  const until = new Date(openUntil);
  return until.getTime() > now
    ? `Open until ${clockTime.format(until)}`
    : 'Open, cool-down over: the next lead is its trial';
}
