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
  | { state: 'done'; leadId: string }
  /** The key was used with another request body: a new request needs a new key (issue 23). */
  | { state: 'reused' };

// A claim whose request died mid-way frees itself after this long at most...
const IN_PROGRESS_TTL_MS = 60_000;
// ...but a retry may take it over once it is this old: a live request creates its lead within milliseconds,
// and the lead's creation checks the claim, so the request taken over creates nothing.
export const CLAIM_STALE_MS = 3_000;
const IN_PROGRESS = '~in-progress';
const REUSED = '~reused';

// Claims a free key, or takes over a stale claim, recording the request's fingerprint beside it. Returns the
// value now held when it is not ours, or '~reused' when the key was used with another body.
// KEYS: key, fingerprint key. ARGV: claim, ttl ms, now ms, stale ms, fingerprint, fingerprint ttl ms.
const CLAIM = `
local current = redis.call('GET', KEYS[1])
if current then
  local held = redis.call('GET', KEYS[2])
  if held and held ~= ARGV[5] then return '~reused' end
  if string.sub(current, 1, 12) ~= '~in-progress' then return current end
  local at = tonumber(string.match(current, ':(%d+):'))
  if at == nil or tonumber(ARGV[3]) - at < tonumber(ARGV[4]) then return current end
end
redis.call('SET', KEYS[1], ARGV[1], 'PX', ARGV[2])
redis.call('SET', KEYS[2], ARGV[5], 'PX', ARGV[6])
return 'OK'`;

/** JSON with every object's keys sorted, so two spellings of one body are one text. */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, v: unknown) =>
    v && typeof v === 'object' && !Array.isArray(v)
      ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : v,
  );
}

/** SHA-256 of the body's canonical JSON: what an `Idempotency-Key` is bound to besides its lead. */
export function requestFingerprint(body: unknown): string {
  return createHash('sha256').update(canonicalJson(body)).digest('base64url');
}

/**
 * Partner idempotency keys in Redis, per partner: the first request with a key claims it, and once its lead
 * exists the key maps to that lead id for 24 hours. The key is bound to the request too: beside it sits the
 * fingerprint of the first request's body ({@link requestFingerprint}), and the same key with another body is
 * refused (as Stripe and the IETF Idempotency-Key draft do) rather than answered with the first lead. Keys are
 * stored hashed: partners sometimes use their own customer references as keys, and those must not sit in Redis
 * in clear.
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

  private fingerprintKey(key: string): string {
    return `${key}:body`;
  }

  /**
   * Claims `idempotencyKey` for a new request with this `fingerprint`, or says what an earlier request with it
   * became, or that it was used with another body.
   */
  async claim(partnerId: string, idempotencyKey: string, fingerprint: string): Promise<IdempotencyClaim> {
    const key = this.key(partnerId, idempotencyKey);
    const leadId = LeadStore.newLeadId();
    const claim = `${IN_PROGRESS}:${Date.now()}:${leadId}`;
    const result = (await evalScript(
      this.redis,
      CLAIM,
      2,
      key,
      this.fingerprintKey(key),
      claim,
      IN_PROGRESS_TTL_MS,
      Date.now(),
      CLAIM_STALE_MS,
      fingerprint,
      // Outlives the key's binding (set when the lead is created, a moment later), never the other way round.
      IDEMPOTENCY_KEY_TTL_MS + IN_PROGRESS_TTL_MS,
    )) as string;
    if (result === 'OK') {
      return { state: 'new', leadId, key, claim, ttlMs: IDEMPOTENCY_KEY_TTL_MS };
    }
    if (result === REUSED) return { state: 'reused' };
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
      "if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1], KEYS[2]) end return 0",
      2,
      claim.key,
      this.fingerprintKey(claim.key),
      claim.claim,
    );
  }
}
