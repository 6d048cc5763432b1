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

// Writes a submission's evidence once (docs/adr/0026), inside the script that records the submission (or, for a
// submission recorded before this was so, the script that completes it): marks the lead, keeps the consent
// evidence for its retention period (first record stays) and appends the lead events that record the submission.
// A lead already marked is left as it is. Reads ARGV from index i: marker field, consent key, sealed consent, its
// ttl ms, lead-event stream, event count n, then n events (JSON). Answers 1 when written, 0 when already there,
// and the index after the block.
const WRITE_EVIDENCE = `
local function write_evidence(lead, i)
  local n = tonumber(ARGV[i + 5])
  local after = i + 6 + n
  if redis.call('HSETNX', lead, ARGV[i], '1') == 0 then return 0, after end
  redis.call('SET', ARGV[i + 1], ARGV[i + 2], 'PX', ARGV[i + 3], 'NX')
  for j = i + 6, after - 1 do redis.call('XADD', ARGV[i + 4], '*', 'e', ARGV[j]) end
  return 1, after
end`;

// Records the submission with its evidence, marks the lead pending and puts it in the submission outbox, all in
// one script: a lead marked submitted always has an outbox entry until its queue job exists (docs/adr/0008), and
// its evidence (docs/adr/0026).
// KEYS: lead, outbox, outcome channel, pending index. ARGV: submission field, state, now ms, lead id, outcome
// field, seq field, pending outcome, deadline ms, then the evidence block (WRITE_EVIDENCE) from 9, then extra
// meta field/value pairs.
export const START_SUBMISSION = `${WRITE_EVIDENCE}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
local _, meta = write_evidence(KEYS[1], 9)
for i = meta, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
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

// Records a submission that is not posted (a duplicate borrower) with its final outcome and its evidence, in one
// script: the lead is never in the outbox or the pending index, and its outcome is published like any other.
// KEYS: lead, outcome channel. ARGV: submission field, state, lead id, outcome field, seq field, outcome, then the
// evidence block (WRITE_EVIDENCE) from 7, then extra meta field/value pairs.
export const FINISH_SUBMISSION = `${WRITE_EVIDENCE}
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
local _, meta = write_evidence(KEYS[1], 7)
for i = meta, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
local seq = redis.call('HINCRBY', KEYS[1], ARGV[5], 1)
local outcome = cjson.decode(ARGV[6])
outcome.seq = seq
redis.call('HSET', KEYS[1], ARGV[4], cjson.encode(outcome))
redis.call('PUBLISH', KEYS[2], cjson.encode({ leadId = ARGV[3], seq = seq }))
return 1`;

// Writes the evidence a submitted lead lacks (recorded before its evidence went with it, docs/adr/0026): a repeat
// request and the reconciler run it; a lead whose evidence is there is left as it is.
// KEYS: lead. ARGV: submission field, then the evidence block (WRITE_EVIDENCE) from 2. Answers 1 when written, 0
// when already there, -1 when the lead is gone or not submitted.
export const COMPLETE_EVIDENCE = `${WRITE_EVIDENCE}
if redis.call('HEXISTS', KEYS[1], ARGV[1]) == 0 then return -1 end
local written = write_evidence(KEYS[1], 2)
return written`;

// Creates a complete lead already submitted (partner API) with its evidence in one step, so there is never a
// half-made lead, and, when a claim is given, binds the idempotency key to it in the same step: a retry finds the
// key bound or free.
// KEYS: lead, outbox, outcome channel, idempotency key (or the lead key again when there is none), pending index.
// ARGV: ttl ms, now ms, lead id, claim (or ''), key ttl ms, deadline ms, field count n, then n field/value pairs
// (answers and meta, outcome included), then the evidence block (WRITE_EVIDENCE).
export const CREATE_SUBMITTED = `${WRITE_EVIDENCE}
if ARGV[4] ~= '' and redis.call('GET', KEYS[4]) ~= ARGV[4] then return 0 end
if redis.call('EXISTS', KEYS[1]) == 1 then return -1 end
local n = tonumber(ARGV[7])
for i = 8, 7 + 2 * n, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
redis.call('PEXPIRE', KEYS[1], ARGV[1])
redis.call('ZADD', KEYS[2], ARGV[2], ARGV[3])
write_evidence(KEYS[1], 8 + 2 * n)
redis.call('ZADD', KEYS[5], ARGV[6], ARGV[3])
if ARGV[4] ~= '' then redis.call('SET', KEYS[4], ARGV[3], 'PX', ARGV[5]) end
redis.call('PUBLISH', KEYS[3], cjson.encode({ leadId = ARGV[3], seq = 1 }))
return 1`;

// A final outcome is never replaced: the first lender decision (or the deadline) wins, whatever retries follow.
// Each change bumps the sequence and is published, so every BFF instance can push it to the browser.
// The announcement carries the `traceparent` of the span that decided, when given, so the BFF's push of it to the
// browser joins the lead's trace.
// KEYS: lead, outcome channel, pending index. ARGV: outcome field, seq field, outcome, lead id, traceparent or ''.
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
local message = { leadId = ARGV[4], seq = seq }
if ARGV[5] and ARGV[5] ~= '' then message.traceparent = ARGV[5] end
redis.call('PUBLISH', KEYS[2], cjson.encode(message))
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
