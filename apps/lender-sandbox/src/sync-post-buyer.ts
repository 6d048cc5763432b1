import {
  SyncPostPayloadSchema,
  type SyncPostPayload,
  type SyncPostResponse,
} from '@funnel/contracts/sync-post-network';
import type { SandboxBuyer, SandboxBuyerStats } from '@funnel/contracts/sandbox-buyers';
import { offerAddress } from './lender-addresses.js';
import { SeededRandom, derivedId } from './seeded-random.js';

type SyncPostProfile = Extract<SandboxBuyer, { protocol: 'sync-post' }>;

/** How one post is answered, and after how long. */
export interface SyncPostAnswer {
  body: SyncPostResponse;
  delayMs: number;
}

/**
 * A simulated LeadsMarket-style buyer. Each lead (our `ReferenceID`) gets a seeded value: whether the buyer
 * wants it at all, and the most it would pay. A post sells when the floor is at most that value, at a price
 * between the two; otherwise it is rejected. A buyer that cannot answer within the post's `MaxResponseTime`
 * rejects when the time is up, as the real networks do. Answers are kept by idempotency key: a re-post of a
 * key gets its first answer back and never counts as a new attempt.
 */
export class SyncPostBuyer {
  /** By idempotency key: the first answer, and the body exactly as first posted. */
  readonly #attempts = new Map<string, { answer: SyncPostResponse; payload: unknown }>();
  readonly #keysByFloor = new Map<string, number>();
  #stats = zero();

  constructor(
    readonly profile: SyncPostProfile,
    private readonly publicUrl: string,
    /** Attempts kept in memory; the oldest are forgotten beyond this. */
    private readonly maxAttempts: number,
    /** Told of each new sale by our `ReferenceID` (the buyer's returns, ADR 0020). */
    private readonly onSold?: (reference: string) => void,
  ) {}

  post(body: unknown): SyncPostAnswer {
    const parsed = SyncPostPayloadSchema.safeParse(body);
    if (!parsed.success) {
      this.#stats.errors += 1;
      const errors = parsed.error.issues.map((issue) => ({
        Field: String(issue.path[0] ?? ''),
        Description: issue.message,
      }));
      return { body: { Result: 'Error', Errors: errors }, delayMs: 0 };
    }
    const payload = parsed.data;
    const delayMs = this.#latency(payload.IdempotencyKey, payload.ReferenceID);
    const known = this.#attempts.get(payload.IdempotencyKey);
    if (known) {
      this.#stats.replays += 1;
      return { body: known.answer, delayMs };
    }
    this.#stats.attempts += 1;
    const floorKey = `${payload.ReferenceID}@${payload.MinimumPrice}`;
    const seen = this.#keysByFloor.get(floorKey) ?? 0;
    if (seen > 0) this.#stats.repeatedAttempts += 1;
    this.#keysByFloor.set(floorKey, seen + 1);

    const timedOut = delayMs > payload.MaxResponseTime * 1000;
    const answer = timedOut ? rejected() : this.#decide(payload);
    this.#attempts.set(payload.IdempotencyKey, { answer, payload: body });
    if (this.#attempts.size > this.maxAttempts) {
      const oldest = this.#attempts.keys().next().value;
      if (oldest !== undefined) this.#attempts.delete(oldest);
    }
    if (answer.Result === 'Sold') {
      this.#stats.sold += 1;
      this.onSold?.(payload.ReferenceID);
    } else this.#stats.rejected += 1;
    return { body: answer, delayMs: timedOut ? payload.MaxResponseTime * 1000 : delayMs };
  }

  /** An attempt as the buyer holds it, by idempotency key: the payload as first posted and its answer. */
  attempt(key: string): { payload: unknown; answer: SyncPostResponse } | undefined {
    return this.#attempts.get(key);
  }

  stats(): SandboxBuyerStats {
    return { id: this.profile.id, protocol: 'sync-post', ...this.#stats };
  }

  reset(): void {
    this.#attempts.clear();
    this.#keysByFloor.clear();
    this.#stats = zero();
  }

  #decide(payload: SyncPostPayload): SyncPostResponse {
    const { states, seed, interestShare, maxValue, bidShare } = this.profile;
    if (states && !states.includes(payload.State)) return rejected();
    const random = SeededRandom.derive(seed, 'value', payload.ReferenceID);
    const interested = random.chance(interestShare);
    const value = random.next() * maxValue;
    if (!interested || value < payload.MinimumPrice) return rejected();
    const price = Math.round((payload.MinimumPrice + (value - payload.MinimumPrice) * bidShare) * 100) / 100;
    const leadId = derivedId(seed, 'sync-post-lead', payload.IdempotencyKey);
    return {
      Result: 'Sold',
      LeadID: leadId,
      Price: price,
      RedirectURL: offerAddress(this.publicUrl, leadId),
      Errors: [],
    };
  }

  #latency(key: string, referenceId: string): number {
    const { seed, latencyMinMs, latencyMaxMs, slowShare, slowMs } = this.profile;
    if (slowShare > 0 && SeededRandom.derive(seed, 'slow', referenceId).chance(slowShare)) return slowMs;
    return SeededRandom.derive(seed, 'latency', key).intBetween(latencyMinMs, latencyMaxMs);
  }
}

function rejected(): SyncPostResponse {
  return { Result: 'Rejected', Errors: [] };
}

function zero() {
  return { attempts: 0, replays: 0, repeatedAttempts: 0, sold: 0, rejected: 0, errors: 0, pending: 0 };
}
