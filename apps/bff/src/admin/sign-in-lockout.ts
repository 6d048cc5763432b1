import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

/** Wrong sign-ins an account takes before it is held: enough for typos and a forgotten caps lock. */
export const FREE_FAILURES = 5;
const FIRST_HOLD_MS = 30_000;
/** The longest hold: an attacker can make an admin wait this long, never longer (ADR 0023). */
export const MAX_HOLD_MS = 15 * 60_000;
/** Failures are forgotten a day after the last one. */
const FAILURES_TTL_MS = 24 * 60 * 60_000;
/** An address the account signed in from is known for this long, and is never held. */
const KNOWN_ADDRESS_MS = 30 * 24 * 60 * 60_000;

/**
 * How long an account is held after its `failures`-th wrong sign-in in a row: nothing for the first five, then
 * 30 s doubling with each further failure (30 s, 1 min, 2 min, 4 min, 8 min), never more than 15 minutes.
 */
export function holdAfter(failures: number): number {
  if (failures <= FREE_FAILURES) return 0;
  return Math.min(FIRST_HOLD_MS * 2 ** (failures - FREE_FAILURES - 1), MAX_HOLD_MS);
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('base64url');

/**
 * The per-account lockout of local sign-in (ADR 0023), on top of the per-address rate limit: wrong sign-ins of
 * one account from any number of addresses add up, and hold the account with exponential backoff. An address the
 * account signed in from in the last 30 days is never held, so an attacker cannot keep its owner out. All state
 * is in Redis (every BFF instance sees the same counts), under the email's hash: an unknown email is held
 * exactly like a known one, and the keys name nobody.
 */
export class SignInLockout {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  private failuresKey(email: string): string {
    return `${this.keyPrefix}operator-sign-in-failures:${sha256(email.toLowerCase())}`;
  }

  private knownKey(email: string): string {
    return `${this.keyPrefix}operator-known-addresses:${sha256(email.toLowerCase())}`;
  }

  /** Milliseconds until `email` may try again from `ip`; 0 when it may now. */
  async heldFor(email: string, ip: string, nowMs: number): Promise<number> {
    const [until, known] = await Promise.all([
      this.redis.hget(this.failuresKey(email), 'until'),
      this.redis.zscore(this.knownKey(email), sha256(ip)),
    ]);
    if (known !== null && Number(known) > nowMs - KNOWN_ADDRESS_MS) return 0;
    return Math.max(0, Number(until ?? 0) - nowMs);
  }

  /** Counts a wrong sign-in of `email`; answers how long the account is now held. */
  async failed(email: string, nowMs: number): Promise<number> {
    const key = this.failuresKey(email);
    const [[, failures]] = (await this.redis
      .multi()
      .hincrby(key, 'failures', 1)
      .pexpire(key, FAILURES_TTL_MS)
      .exec()) as [[null, number], [null, number]];
    const hold = holdAfter(failures);
    if (hold > 0) await this.redis.hset(key, 'until', nowMs + hold);
    return hold;
  }

  /** A right sign-in: the count starts over, and `ip` becomes an address the account is known at. */
  async succeeded(email: string, ip: string, nowMs: number): Promise<void> {
    await this.redis
      .multi()
      .del(this.failuresKey(email))
      .zadd(this.knownKey(email), nowMs, sha256(ip))
      .zremrangebyscore(this.knownKey(email), '-inf', nowMs - KNOWN_ADDRESS_MS)
      .pexpire(this.knownKey(email), KNOWN_ADDRESS_MS)
      .exec();
  }
}
