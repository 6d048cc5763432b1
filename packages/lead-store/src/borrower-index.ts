import { createHmac } from 'node:crypto';
import type { Redis } from 'ioredis';
import * as z from 'zod';
import { ssnDigits } from '@funnel/contracts/rules/ssn';
import { normalizeEmail } from './contact-hash.js';
import { evalScript } from './redis-script.js';
import { redisKeys, type RedisKeys } from './keys.js';

/** What identifies a borrower across leads (issue 12): the SSN, or the email with the birth date. */
export interface Borrower {
  ssn?: unknown;
  email?: unknown;
  dob?: unknown;
}

/** The lead that holds a borrower for the duplicate window. */
export const BorrowerHolderSchema = z.object({
  leadId: z.string(),
  /** The partner who posted it; absent for a funnel lead. */
  partnerId: z.string().optional(),
  atMs: z.number(),
});
export type BorrowerHolder = z.infer<typeof BorrowerHolderSchema>;

// Returns the first key held by another lead, or claims every key for this one. A holder whose lead does not
// exist and whose claim is recent is a request that died before creating it: its claim does not count.
// KEYS: the borrower keys. ARGV: lead id, holder JSON, ttl ms, now ms, lead key prefix, stale-claim ms.
const CLAIM = `
for _, key in ipairs(KEYS) do
  local current = redis.call('GET', key)
  if current then
    local holder = cjson.decode(current)
    if holder.leadId ~= ARGV[1] then
      local recent = tonumber(ARGV[4]) - holder.atMs < tonumber(ARGV[6])
      if redis.call('EXISTS', ARGV[5] .. holder.leadId) == 1 or not recent then return current end
    end
  end
end
for _, key in ipairs(KEYS) do redis.call('SET', key, ARGV[2], 'PX', ARGV[3]) end
return false`;

// Deletes each key that still names the lead. KEYS: the keys. ARGV: lead id.
const RELEASE = `
local n = 0
for _, key in ipairs(KEYS) do
  local current = redis.call('GET', key)
  if current and cjson.decode(current).leadId == ARGV[1] then n = n + redis.call('DEL', key) end
end
return n`;

/** How long a claim whose lead was never created blocks the borrower (a partner request that died mid-way). */
const UNCREATED_CLAIM_MS = 10 * 60 * 1000;

/**
 * The borrowers submitted in the last `windowMs` (0: detection off), indexed by keyed hashes (HMAC-SHA256 under the server's hash
 * secret) of the normalised SSN and of the email with the birth date: never a value in clear. A submission claims
 * its borrower's keys; a later lead finding them held by another lead is a duplicate and is not posted again.
 */
export class BorrowerIndex {
  constructor(
    private readonly redis: Redis,
    private readonly options: { keyPrefix: string; hashSecret: string; windowMs: number },
  ) {
    this.keys = redisKeys(options.keyPrefix);
  }

  private readonly keys: RedisKeys;

  /** The index keys of `borrower`: one per identifier it has. */
  keysOf(borrower: Borrower): string[] {
    const ids: string[] = [];
    const ssn = typeof borrower.ssn === 'string' ? ssnDigits(borrower.ssn) : '';
    if (ssn.length === 9) ids.push(`ssn:${ssn}`);
    const email = typeof borrower.email === 'string' ? normalizeEmail(borrower.email) : undefined;
    if (email && typeof borrower.dob === 'string' && borrower.dob)
      ids.push(`email-dob:${email}|${borrower.dob}`);
    return ids.map((id) =>
      this.keys.borrower(createHmac('sha256', this.options.hashSecret).update(id).digest('base64url')),
    );
  }

  /**
   * Claims `keys` for `holder.leadId` unless another lead holds one of them: then answers that lead (the
   * duplicate's original) and claims nothing.
   */
  async claim(
    keys: string[],
    holder: Omit<BorrowerHolder, 'atMs'>,
    now = Date.now(),
  ): Promise<BorrowerHolder | undefined> {
    if (keys.length === 0 || this.options.windowMs === 0) return undefined;
    const held = await evalScript(
      this.redis,
      CLAIM,
      keys.length,
      ...keys,
      holder.leadId,
      JSON.stringify({ ...holder, atMs: now }),
      this.options.windowMs,
      now,
      this.keys.leadPrefix,
      UNCREATED_CLAIM_MS,
    );
    return typeof held === 'string' ? BorrowerHolderSchema.parse(JSON.parse(held)) : undefined;
  }

  /** Removes the keys that still name `leadId` (a deletion request); answers how many. */
  async release(keys: string[], leadId: string): Promise<number> {
    if (keys.length === 0) return 0;
    return Number(await evalScript(this.redis, RELEASE, keys.length, ...keys, leadId));
  }
}
