import type { Redis } from 'ioredis';

/**
 * A buyer's circuit breaker as every worker sees it (ADR 0022, "Breaker"): one hash per buyer in Redis, so all
 * workers agree on it. `closed`: offered leads, counting its consecutive failures. `open`: skipped until
 * `openUntil`. `half-open`: the cool-down is over and one worker holds the trial attempt until `trialUntil`;
 * the others skip it meanwhile. `skips`: the leads that passed it over since it last opened.
 */
export type BreakerPosition = 'closed' | 'open' | 'half-open';

export interface BreakerState {
  state: BreakerPosition;
  failures: number;
  /** ms since the epoch; 0 unless open or half-open. */
  openUntil: number;
  trialUntil: number;
  skips: number;
  /** Bumped by each change of the fields above but `skips`: a write is applied only to the revision it read. */
  rev: number;
}

export const CLOSED_BREAKER: BreakerState = {
  state: 'closed',
  failures: 0,
  openUntil: 0,
  trialUntil: 0,
  skips: 0,
  rev: 0,
};

/** Hash of one buyer's breaker: the fields of {@link BreakerState}. */
export function buyerBreakerKey(keyPrefix: string, buyer: string): string {
  return `${keyPrefix}buyers:breaker:${buyer}`;
}

/** A breaker's hash as read from Redis; an absent or unreadable one is closed. */
export function parseBreaker(hash: Record<string, string>): BreakerState {
  const number = (field: string) => {
    const value = Number(hash[field] ?? 0);
    return Number.isFinite(value) ? value : 0;
  };
  const state = hash.state === 'open' || hash.state === 'half-open' ? hash.state : 'closed';
  return {
    state,
    failures: number('failures'),
    openUntil: number('openUntil'),
    trialUntil: number('trialUntil'),
    skips: number('skips'),
    rev: number('rev'),
  };
}

/** Every named buyer's breaker, in one round trip. */
export async function readBuyerBreakers(
  redis: Redis,
  keyPrefix: string,
  buyers: readonly string[],
): Promise<Map<string, BreakerState>> {
  const pipeline = redis.pipeline();
  for (const buyer of buyers) pipeline.hgetall(buyerBreakerKey(keyPrefix, buyer));
  const answers = (await pipeline.exec()) ?? [];
  return new Map(
    buyers.map((buyer, i) => {
      const [error, hash] = answers[i] ?? [null, {}];
      if (error) throw error;
      return [buyer, parseBreaker((hash ?? {}) as Record<string, string>)];
    }),
  );
}
