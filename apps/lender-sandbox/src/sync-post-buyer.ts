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
  readonly #answers = new Map<string, SyncPostResponse>();
  readonly #keysByFloor = new Map<string, number>();
  #stats = zero();

  constructor(
    readonly profile: SyncPostProfile,
    private readonly publicUrl: string,
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
    const delayMs = this.#latency(payload.IdempotencyKey);
    const known = this.#answers.get(payload.IdempotencyKey);
    if (known) {
      this.#stats.replays += 1;
      return { body: known, delayMs };
    }
    this.#stats.attempts += 1;
    const floorKey = `${payload.ReferenceID}@${payload.MinimumPrice}`;
    const seen = this.#keysByFloor.get(floorKey) ?? 0;
    if (seen > 0) this.#stats.repeatedAttempts += 1;
    this.#keysByFloor.set(floorKey, seen + 1);

    const timedOut = delayMs > payload.MaxResponseTime * 1000;
    const answer = timedOut ? rejected() : this.#decide(payload);
    this.#answers.set(payload.IdempotencyKey, answer);
    if (answer.Result === 'Sold') this.#stats.sold += 1;
    else this.#stats.rejected += 1;
    return { body: answer, delayMs: timedOut ? payload.MaxResponseTime * 1000 : delayMs };
  }

  stats(): SandboxBuyerStats {
    return { id: this.profile.id, protocol: 'sync-post', ...this.#stats };
  }

  reset(): void {
    this.#answers.clear();
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

  #latency(key: string): number {
    const { seed, latencyMinMs, latencyMaxMs } = this.profile;
    return SeededRandom.derive(seed, 'latency', key).intBetween(latencyMinMs, latencyMaxMs);
  }
}

function rejected(): SyncPostResponse {
  return { Result: 'Rejected', Errors: [] };
}

function zero() {
  return { attempts: 0, replays: 0, repeatedAttempts: 0, sold: 0, rejected: 0, errors: 0, pending: 0 };
}
