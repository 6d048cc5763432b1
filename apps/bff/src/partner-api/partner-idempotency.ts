import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { IDEMPOTENCY_KEY_TTL_MS } from '@funnel/contracts/partner-api';
import { evalScript } from '@funnel/lead-store/redis-script';

/** What an `Idempotency-Key` already stands for. */
export type IdempotencyClaim =
  { state: 'new' } | { state: 'in-progress' } | { state: 'done'; leadId: string };

// A claim whose request died mid-way (a crashed instance) frees the key after this long, not after 24 h.
const IN_PROGRESS_TTL_MS = 60_000;
const IN_PROGRESS = '~in-progress';

/**
 * Partner idempotency keys in Redis, per partner: the first request with a key claims it, and once its lead
 * exists the key maps to that lead id for 24 hours. Keys are stored hashed: partners sometimes use their own
 * customer references as keys, and those must not sit in Redis in clear.
 */
export class PartnerIdempotency {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  private key(partnerId: string, idempotencyKey: string): string {
    const digest = createHash('sha256').update(idempotencyKey).digest('base64url');
    return `${this.keyPrefix}partner-idempotency:${partnerId}:${digest}`;
  }

  /** Claims `idempotencyKey` for a new request, or says what an earlier request with it became. */
  async claim(partnerId: string, idempotencyKey: string): Promise<IdempotencyClaim> {
    const key = this.key(partnerId, idempotencyKey);
    if ((await this.redis.set(key, IN_PROGRESS, 'PX', IN_PROGRESS_TTL_MS, 'NX')) === 'OK')
      return { state: 'new' };
    const value = await this.redis.get(key);
    if (value === null) return this.claim(partnerId, idempotencyKey);
    return value === IN_PROGRESS ? { state: 'in-progress' } : { state: 'done', leadId: value };
  }

  /** Records the lead a claimed key produced; replays answer with it for 24 hours. */
  async complete(partnerId: string, idempotencyKey: string, leadId: string): Promise<void> {
    await this.redis.set(this.key(partnerId, idempotencyKey), leadId, 'PX', IDEMPOTENCY_KEY_TTL_MS);
  }

  /** Frees a claimed key whose request failed, so the partner can correct the request and send it again. */
  async release(partnerId: string, idempotencyKey: string): Promise<void> {
    const key = this.key(partnerId, idempotencyKey);
    // Only an unfinished claim is freed; a key that already names a lead keeps naming it.
    await evalScript(
      this.redis,
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
      1,
      key,
      IN_PROGRESS,
    );
  }
}
