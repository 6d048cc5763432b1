// The Lua scripts of the lead hash (`lead-store.ts`), run with `evalScript` (EVALSHA). Each runs as one atomic
// step in Redis; KEYS and ARGV are listed above each.

// Removes the fields only from a lead that still exists, and notes when (a purge never creates a hash).
// KEYS: lead. ARGV: purged-at field, time, then the fields to remove.
export const PURGE_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local removed = redis.call('HDEL', KEYS[1], unpack(ARGV, 3))
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return removed`;

// Sets one meta field only on a lead that still exists. KEYS: lead. ARGV: field, value.
export const SET_META_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

// Records the submission, marks the lead pending and puts it in the submission outbox, all in one script: a
// lead marked submitted always has an outbox entry until its queue job exists (docs/adr/0008).
// KEYS: lead, outbox, outcome channel, pending index. ARGV: submission field, state, now ms, lead id, outcome
// field, seq field, pending outcome, deadline ms, then extra meta field/value pairs.
export const START_SUBMISSION = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
for i = 9, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('ZADD', KEYS[2], ARGV[3], ARGV[4])
redis.call('ZADD', KEYS[4], ARGV[8], ARGV[4])
if redis.call('HEXISTS', KEYS[1], ARGV[5]) == 0 then
  local seq = redis.call('HINCRBY', KEYS[1], ARGV[6], 1)
  local outcome = cjson.decode(ARGV[7])
  outcome.seq = seq
  redis.call('HSET', KEYS[1], ARGV[5], cjson.encode(outcome))
  redis.call('PUBLISH', KEYS[3], cjson.encode({ leadId = ARGV[4], seq = seq }))
end
return 1`;

// Records a submission that is not posted (a duplicate borrower) with its final outcome, in one script: the lead
// is never in the outbox or the pending index, and its outcome is published like any other.
// KEYS: lead, outcome channel. ARGV: submission field, state, lead id, outcome field, seq field, outcome, then
// extra meta field/value pairs.
export const FINISH_SUBMISSION = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
for i = 7, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
local seq = redis.call('HINCRBY', KEYS[1], ARGV[5], 1)
local outcome = cjson.decode(ARGV[6])
outcome.seq = seq
redis.call('HSET', KEYS[1], ARGV[4], cjson.encode(outcome))
redis.call('PUBLISH', KEYS[2], cjson.encode({ leadId = ARGV[3], seq = seq }))
return 1`;

// Creates a complete lead already submitted (partner API) in one step, so there is never a half-made lead, and,
// when a claim is given, binds the idempotency key to it in the same step: a retry finds the key bound or free.
// KEYS: lead, outbox, outcome channel, idempotency key (or the lead key again when there is none), pending index.
// ARGV: ttl ms, now ms, lead id, claim (or ''), key ttl ms, field count n, then n field/value pairs (answers and
// meta, outcome included), then the consent key, its value and its ttl ms, then the deadline ms.
export const CREATE_SUBMITTED = `
if ARGV[4] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[4] then return 0 end
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local n = tonumber(ARGV[6])
for i = 7, 6 + 2 * n, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
local c = 7 + 2 * n
redis.call('SET', ARGV[c], ARGV[c + 1], 'PX', ARGV[c + 2], 'NX')
redis.call('ZADD', KEYS[5], ARGV[c + 3], ARGV[3])
if ARGV[4] ~= '' then redis.call('SET', KEYS[4], ARGV[3], 'PX', ARGV[5]) end
redis.call('PUBLISH', KEYS[3], cjson.encode({ leadId = ARGV[3], seq = 1 }))
return 1`;

// A final outcome is never replaced: the first lender decision (or the deadline) wins, whatever retries follow.
// Each change bumps the sequence and is published, so every BFF instance can push it to the browser.
// KEYS: lead, outcome channel, pending index. ARGV: outcome field, seq field, outcome, lead id.
export const SET_OUTCOME = `
local function final(state) return state == 'sold' or state == 'rejected' or state == 'no_lender' end
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current and final(cjson.decode(current).outcome) then
  redis.call('ZREM', KEYS[3], ARGV[4])
  return current
end
if redis.call('EXISTS', KEYS[1]) == 0 then
  redis.call('ZREM', KEYS[3], ARGV[4])
  return false
end
local seq = redis.call('HINCRBY', KEYS[1], ARGV[2], 1)
local outcome = cjson.decode(ARGV[3])
if final(outcome.outcome) then redis.call('ZREM', KEYS[3], ARGV[4]) end
outcome.seq = seq
local encoded = cjson.encode(outcome)
redis.call('HSET', KEYS[1], ARGV[1], encoded)
redis.call('PUBLISH', KEYS[2], cjson.encode({ leadId = ARGV[4], seq = seq }))
return encoded`;

// The first do-not-sell reason stays; like a save, a flag never resurrects an expired lead.
// KEYS: lead. ARGV: do-not-sell field, flag.
export const FLAG_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
return redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])`;

// Writes only while the lead still exists, so a save racing the TTL never resurrects a half-empty lead.
// KEYS: lead. ARGV: ttl ms, then field/value pairs.
export const UPDATE_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;
