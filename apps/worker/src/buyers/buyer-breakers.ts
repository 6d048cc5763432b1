import type { Redis } from 'ioredis';
import { breakerOf, type Buyer } from '@funnel/contracts/buyers';
import {
  buyerBreakerKey,
  parseBreaker,
  readBuyerBreakers,
  type BreakerPosition,
  type BreakerState,
} from '@funnel/server-runtime/buyer-breaker';
import { admit, blocksPlanning, breakerOutcome, settle, type EndedAttempt } from './breaker-machine.js';

/** A breaker that moved: `from` → `to`, and the state it is in now. */
export interface BreakerTransition {
  buyer: string;
  from: BreakerPosition;
  to: BreakerPosition;
  breaker: BreakerState;
}

/** A breaker left alone this long is forgotten (closed): a buyer that failed once a week ago starts afresh. */
const BREAKER_TTL_MS = 24 * 3600_000;
/** Gives up on a write that keeps losing to other workers' writes (it would mean a bug, not contention). */
const MAX_TRIES = 20;

// Writes the fields only if the revision is still the one read (each worker computes the next state itself,
// `breaker-machine.ts`): two workers never both take the trial, nor lose each other's failure counts.
const WRITE_IF_REVISION = `
local rev = tonumber(redis.call('HGET', KEYS[1], 'rev') or '0')
if rev ~= tonumber(ARGV[1]) then return 0 end
redis.call('HSET', KEYS[1], 'rev', rev + 1, unpack(ARGV, 3))
redis.call('PEXPIRE', KEYS[1], ARGV[2])
return 1`;

/**
 * The buyers' circuit breakers, shared by every worker through Redis (ADR 0022, "Breaker"). A walk's plan leaves
 * out the buyers whose breaker blocks (`blocked`), and each attempt asks `admit` before it starts, exactly where
 * a paused buyer is passed over: a skipped buyer costs the lead nothing and the lead moves on to the next one.
 * Each ended attempt is `record`ed. The clock is injected so tests drive the cool-down.
 */
export class BuyerBreakers {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly options: {
      now: () => number;
      /** Each change of position, once, on the worker that made it (the metric and the log line). */
      onTransition?: (transition: BreakerTransition) => void;
      /** Each lead that passed a buyer over because of its breaker. */
      onSkip?: (buyer: string) => void;
    },
  ) {}

  /** The buyers among `buyers` a lead planned now leaves out; each counts one skip. */
  async blocked(buyers: readonly string[]): Promise<Set<string>> {
    if (buyers.length === 0) return new Set();
    const now = this.options.now();
    const states = await readBuyerBreakers(this.redis, this.keyPrefix, buyers);
    const blocked = new Set([...states].filter(([, b]) => blocksPlanning(b, now)).map(([id]) => id));
    for (const buyer of blocked) await this.#skipped(buyer);
    return blocked;
  }

  /** Whether an attempt at `buyer` may start now: false means skip it (one skip counted). */
  async admit(buyer: Buyer): Promise<boolean> {
    for (let tries = 0; tries < MAX_TRIES; tries += 1) {
      const now = this.options.now();
      const current = await this.#read(buyer.id);
      const verdict = admit(current, now, buyer.timeouts.attemptMs);
      if (verdict.verdict === 'pass') return true;
      if (verdict.verdict === 'skip') {
        await this.#skipped(buyer.id);
        return false;
      }
      if (await this.#write(buyer.id, current, verdict.next)) return true;
    }
    throw new Error(`The breaker of ${buyer.id} kept changing under this worker`);
  }

  /** Counts an ended attempt's outcome against its buyer (nothing for one that never reached it). */
  async record(buyer: Buyer, attempt: EndedAttempt): Promise<void> {
    const outcome = breakerOutcome(attempt);
    if (!outcome) return;
    for (let tries = 0; tries < MAX_TRIES; tries += 1) {
      const current = await this.#read(buyer.id);
      const next = settle(current, outcome, this.options.now(), breakerOf(buyer));
      if (!next || (await this.#write(buyer.id, current, next))) return;
    }
    throw new Error(`The breaker of ${buyer.id} kept changing under this worker`);
  }

  async #read(buyer: string): Promise<BreakerState> {
    return parseBreaker(await this.redis.hgetall(buyerBreakerKey(this.keyPrefix, buyer)));
  }

  async #write(buyer: string, current: BreakerState, next: BreakerState): Promise<boolean> {
    const fields = [
      ['state', next.state],
      ['failures', next.failures],
      ['openUntil', next.openUntil],
      ['trialUntil', next.trialUntil],
      ...(next.skips !== current.skips ? [['skips', next.skips]] : []),
    ].flat();
    const key = buyerBreakerKey(this.keyPrefix, buyer);
    const written = await this.redis.eval(WRITE_IF_REVISION, 1, key, current.rev, BREAKER_TTL_MS, ...fields);
    if (written !== 1) return false;
    if (next.state !== current.state) {
      this.options.onTransition?.({
        buyer,
        from: current.state,
        to: next.state,
        breaker: { ...next, rev: current.rev + 1 },
      });
    }
    return true;
  }

  async #skipped(buyer: string): Promise<void> {
    // Not a change of state: counted without a revision, so skipping workers never race the ones that write.
    await this.redis.hincrby(buyerBreakerKey(this.keyPrefix, buyer), 'skips', 1);
    this.options.onSkip?.(buyer);
  }
}
