import type { Redis } from 'ioredis';
import {
  NO_REPLICA_WAIT,
  confirmReplicated,
  type ReplicaWaitConfig,
} from '@funnel/server-runtime/replica-wait';
import { buyerCapKeys } from '@funnel/server-runtime/buyer-caps';
import type { WalkStep } from '../buyers/buyer-eligibility.js';

/** Where one lead's walk stands, as persisted in Redis. */
export interface Cursor {
  plan: WalkStep[];
  /** The step being tried (or next to try). */
  index: number;
  /** ready: step `index` not started; posting: posted, answer not recorded; pending: posted, answered pending;
   * done: sold (with `result`); closed: the lead ended outside the walk. */
  state: 'ready' | 'posting' | 'pending' | 'done' | 'closed';
  /** The attempt's time, ms since the epoch. */
  startedAt?: number;
  endsAt?: number;
  upstreamLeadId?: string;
  checkKey?: string;
  /** The last reject address a buyer handed out. */
  rejectUrl?: string;
  /** Whether any buyer decided against the lead (rejected it, or refused its fields): a walk that ends
   * without one ends as no lender, not rejected. */
  declined: boolean;
  /** Buyers whose later steps are passed over: they refused the lead's fields, or their cap is full. */
  skipped: string[];
  /** The sale, once recorded. */
  result?: SoldResult;
}

export interface SoldResult {
  buyer: string;
  price: number;
  /** Absent when the buyer sold without an address. */
  redirectUrl?: string;
  /** When the buyer's sold answer was received, ms since the epoch (absent on walks sold before it was kept). */
  decidedAt?: number;
}

/** Caps of one buyer and the counters they are kept in for the current windows. */
export interface CapReservation {
  hourKey: string;
  dayKey: string;
  perHour: number | undefined;
  perDay: number | undefined;
}

const HOUR_MS = 3600_000;

// KEYS: cursor. ARGV: plan JSON, TTL ms. Creates the cursor once; always answers the cursor as it is.
const INIT = `
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('HSET', KEYS[1], 'plan', ARGV[1], 'i', '0', 'state', 'ready')
  redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return redis.call('HGETALL', KEYS[1])`;

// Starts step i: reserves a place under each cap (never beyond it, whatever runs at the same time) and marks
// the step posting with its time, in one step, so a crash leaves either nothing or a reservation the cursor
// knows about. KEYS: cursor, hour counter, day counter. ARGV: i, startedAt, endsAt, hour cap, day cap (0: none),
// hour TTL ms, day TTL ms.
const BEGIN = `
if redis.call('HGET', KEYS[1], 'i') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'state') ~= 'ready' then
  return 'stale'
end
local caps = { { KEYS[2], tonumber(ARGV[4]), ARGV[6] }, { KEYS[3], tonumber(ARGV[5]), ARGV[7] } }
for _, cap in ipairs(caps) do
  if cap[2] > 0 and tonumber(redis.call('GET', cap[1]) or '0') >= cap[2] then return 'capped' end
end
local reserved = {}
for _, cap in ipairs(caps) do
  if cap[2] > 0 then
    redis.call('INCR', cap[1])
    redis.call('PEXPIRE', cap[1], cap[3])
    table.insert(reserved, cap[1])
  end
end
redis.call('HSET', KEYS[1], 'state', 'posting', 'startedAt', ARGV[2], 'endsAt', ARGV[3],
  'reserved', table.concat(reserved, '\\n'))
return 'ok'`;

// Step i answered pending. KEYS: cursor. ARGV: i, upstream lead id, check key.
const PENDING = `
if redis.call('HGET', KEYS[1], 'i') ~= ARGV[1] or redis.call('HGET', KEYS[1], 'state') ~= 'posting' then
  return 'stale'
end
redis.call('HSET', KEYS[1], 'state', 'pending', 'upstream', ARGV[2], 'checkKey', ARGV[3])
return 'ok'`;

// Step i ended without a sale: its cap places go back (when ARGV[3] is 1) and the walk moves to step ARGV[2].
// Releasing and moving are one step, so a place is never given back twice. KEYS: cursor. ARGV: i, next i,
// release, reject address ('' for none), 1 when the buyer decided against the lead, a buyer whose later steps
// are passed over ('' for none).
const ADVANCE = `
if redis.call('HGET', KEYS[1], 'i') ~= ARGV[1] then return 'stale' end
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'ready' and state ~= 'posting' and state ~= 'pending' then return 'stale' end
local reserved = redis.call('HGET', KEYS[1], 'reserved') or ''
if ARGV[3] == '1' and reserved ~= '' then
  for key in string.gmatch(reserved, '[^\\n]+') do
    if redis.call('DECR', key) < 0 then redis.call('SET', key, '0', 'KEEPTTL') end
  end
end
redis.call('HSET', KEYS[1], 'i', ARGV[2], 'state', 'ready', 'reserved', '')
redis.call('HDEL', KEYS[1], 'upstream', 'checkKey', 'startedAt', 'endsAt')
if ARGV[4] ~= '' then redis.call('HSET', KEYS[1], 'rejectUrl', ARGV[4]) end
if ARGV[5] == '1' then redis.call('HSET', KEYS[1], 'declined', '1') end
if ARGV[6] ~= '' then
  local skipped = redis.call('HGET', KEYS[1], 'skipped')
  redis.call('HSET', KEYS[1], 'skipped', skipped and (skipped .. '\\n' .. ARGV[6]) or ARGV[6])
end
return 'ok'`;

// Step i sold: the cap places stay taken. KEYS: cursor. ARGV: i, result JSON.
const SOLD = `
if redis.call('HGET', KEYS[1], 'i') ~= ARGV[1] then return 'stale' end
local state = redis.call('HGET', KEYS[1], 'state')
if state ~= 'posting' and state ~= 'pending' then return 'stale' end
redis.call('HSET', KEYS[1], 'state', 'done', 'result', ARGV[2], 'reserved', '')
return 'ok'`;

// The lead ended outside the walk (the reconciler past its deadline, a job failed for good): the places its
// unfinished attempt holds go back, once, and the walk is closed so no later run starts another attempt.
// A walk already sold keeps its places. KEYS: cursor.
const CLOSE = `
local state = redis.call('HGET', KEYS[1], 'state')
if not state or state == 'done' or state == 'closed' then return 'stale' end
local reserved = redis.call('HGET', KEYS[1], 'reserved') or ''
for key in string.gmatch(reserved, '[^\\n]+') do
  if redis.call('DECR', key) < 0 then redis.call('SET', key, '0', 'KEEPTTL') end
end
redis.call('HSET', KEYS[1], 'state', 'closed', 'reserved', '')
return 'ok'`;

/**
 * One lead's walk through the buyers, persisted in Redis and changed only by Lua scripts that check the step
 * they expect (compare-and-set), so a run that lost its job lock, or a run after a crash, can never move the
 * walk twice or give a cap place back twice.
 */
export class WaterfallCursors {
  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    /**
     * Replicas that must hold each move of the walk before it is acted on (docs/adr/0018): a step marked posting
     * before the buyer is called, an answer recorded before the walk goes on. Throws `WriteNotReplicatedError`.
     */
    private readonly replicaWait: ReplicaWaitConfig = NO_REPLICA_WAIT,
  ) {}

  /** Runs a script that moves the walk, then, when it moved (`ok`), waits for the replicas. */
  private async move<T extends string>(script: string, keys: number, ...args: (string | number)[]) {
    const result = (await this.redis.eval(script, keys, ...args)) as T;
    if (result === 'ok') await confirmReplicated(this.redis, this.replicaWait);
    return result;
  }

  key(leadId: string): string {
    return `${this.keyPrefix}waterfall:${leadId}`;
  }

  /** The idempotency key of step `index` of a lead's walk: the same step always has the same key. */
  static attemptKey(leadId: string, index: number): string {
    return `${leadId}-${index}`;
  }

  /** Counter keys of a buyer's caps for the windows `now` falls in (`day` in the business time zone). */
  capKeys(buyer: string, now: number, day: string): { hourKey: string; dayKey: string } {
    return buyerCapKeys(this.keyPrefix, buyer, now, day);
  }

  /** How many places of a cap window are taken. */
  async capCount(key: string): Promise<number> {
    return Number((await this.redis.get(key)) ?? 0);
  }

  async init(leadId: string, plan: WalkStep[], ttlMs: number): Promise<Cursor> {
    const flat = (await this.redis.eval(INIT, 1, this.key(leadId), JSON.stringify(plan), ttlMs)) as string[];
    await confirmReplicated(this.redis, this.replicaWait);
    return parse(flat);
  }

  async get(leadId: string): Promise<Cursor | undefined> {
    const hash = await this.redis.hgetall(this.key(leadId));
    return hash.plan ? parse(Object.entries(hash).flat()) : undefined;
  }

  async begin(
    leadId: string,
    index: number,
    window: { startedAt: number; endsAt: number },
    caps: CapReservation,
  ): Promise<'ok' | 'capped' | 'stale'> {
    return this.move<'ok' | 'capped' | 'stale'>(
      BEGIN,
      3,
      this.key(leadId),
      caps.hourKey,
      caps.dayKey,
      index,
      window.startedAt,
      window.endsAt,
      caps.perHour ?? 0,
      caps.perDay ?? 0,
      2 * HOUR_MS,
      2 * 24 * HOUR_MS,
    );
  }

  async pending(leadId: string, index: number, upstreamLeadId: string, checkKey: string) {
    return this.move<'ok' | 'stale'>(PENDING, 1, this.key(leadId), index, upstreamLeadId, checkKey);
  }

  /**
   * Moves past step `index` to `next`, giving back the step's cap places when `release`; `declined` when its
   * buyer answered and said no (not a timeout or an error); `skipBuyer` passes over that buyer's later steps.
   */
  async advance(
    leadId: string,
    index: number,
    move: { next: number; release: boolean; rejectUrl?: string; declined?: boolean; skipBuyer?: string },
  ) {
    return this.move<'ok' | 'stale'>(
      ADVANCE,
      1,
      this.key(leadId),
      index,
      move.next,
      move.release ? '1' : '0',
      move.rejectUrl ?? '',
      move.declined ? '1' : '0',
      move.skipBuyer ?? '',
    );
  }

  /** Closes a walk its lead left unfinished, giving back the cap places of an attempt still in flight. */
  async close(leadId: string) {
    return this.move<'ok' | 'stale'>(CLOSE, 1, this.key(leadId));
  }

  async sold(leadId: string, index: number, result: SoldResult) {
    return this.move<'ok' | 'stale'>(SOLD, 1, this.key(leadId), index, JSON.stringify(result));
  }
}

function parse(flat: string[]): Cursor {
  const hash: Record<string, string> = {};
  for (let i = 0; i + 1 < flat.length; i += 2) hash[flat[i]!] = flat[i + 1]!;
  return {
    plan: JSON.parse(hash.plan ?? '[]') as WalkStep[],
    index: Number(hash.i ?? 0),
    state: (hash.state ?? 'ready') as Cursor['state'],
    ...(hash.startedAt ? { startedAt: Number(hash.startedAt) } : {}),
    ...(hash.endsAt ? { endsAt: Number(hash.endsAt) } : {}),
    ...(hash.upstream ? { upstreamLeadId: hash.upstream } : {}),
    ...(hash.checkKey ? { checkKey: hash.checkKey } : {}),
    ...(hash.rejectUrl ? { rejectUrl: hash.rejectUrl } : {}),
    declined: hash.declined === '1',
    skipped: hash.skipped ? hash.skipped.split('\n') : [],
    ...(hash.result ? { result: JSON.parse(hash.result) as SoldResult } : {}),
  };
}
