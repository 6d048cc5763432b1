import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';
import { IDEMPOTENCY_KEY_TTL_MS } from '@funnel/contracts/partner-api';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { evalScript } from '@funnel/lead-store/redis-script';

/**
 * What an `Idempotency-Key` already stands for. A new claim carries the lead id its request will create and the
 * claim value the lead's creation checks and replaces with that id (one Redis script), so a key is only ever
 * free, claimed by a live request, or bound to the one lead it created.
 */
export type IdempotencyClaim =
  | { state: 'new'; leadId: string; key: string; claim: string; ttlMs: number }
  | { state: 'in-progress' }
  | { state: 'done'; leadId: string };

// A claim whose request died mid-way frees itself after this long at most...
const IN_PROGRESS_TTL_MS = 60_000;
// ...but a retry may take it over once it is this old: a live request creates its lead within milliseconds,
// and the lead's creation checks the claim, so the request taken over creates nothing.
export const CLAIM_STALE_MS = 3_000;
const IN_PROGRESS = '~in-progress';

// Claims a free key, or takes over a stale claim. Returns the value now held when it is not ours.
// KEYS: key. ARGV: claim, ttl ms, now ms, stale ms.
const CLAIM = `
local current = redis.call('GET', KEYS[1])
if current then
  if string.sub(current, 1, 12) ~= '~in-progress' then return current end
  local at = tonumber(string.match(current, ':(%d+):'))
  if at == nil or tonumber(ARGV[3]) - at < tonumber(ARGV[4]) then return current end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
return 'OK'`;

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
    const leadId = LeadStore.newLeadId();
    const claim = `${IN_PROGRESS}:${Date.now()}:${leadId}`;
    const result = (await evalScript(
      this.redis,
      CLAIM,
      1,
      key,
      claim,
      IN_PROGRESS_TTL_MS,
      Date.now(),
      CLAIM_STALE_MS,
    )) as string;
    if (result === 'OK') {
      return { state: 'new', leadId, key, claim, ttlMs: IDEMPOTENCY_KEY_TTL_MS };
    }
    return result.startsWith(IN_PROGRESS) ? { state: 'in-progress' } : { state: 'done', leadId: result };
  }

  /** What the key holds now: a lead id, or undefined (free or still claimed). */
  async boundLead(partnerId: string, idempotencyKey: string): Promise<string | undefined> {
    const value = await this.redis.get(this.key(partnerId, idempotencyKey));
    return value === null || value.startsWith(IN_PROGRESS) ? undefined : value;
  }

  /** Frees a claimed key whose request failed, so the partner can correct the request and send it again. */
  async release(claim: { key: string; claim: string }): Promise<void> {
    // Only our own unfinished claim is freed; a key that names a lead keeps naming it.
    await evalScript(
      this.redis,
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0",
      1,
      claim.key,
      claim.claim,
    );
  }
}
