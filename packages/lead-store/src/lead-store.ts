import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import * as z from 'zod';
import { CLIENT_TO_SERVER, isSealedServerField, type ServerField } from '@funnel/contracts/fields';
import { OUTCOME_CHANNEL } from '@funnel/contracts/jobs';
import {
  ConsentRecordSchema,
  RetainedConsentSchema,
  type ConsentRecord,
  type RetainedConsent,
} from '@funnel/contracts/consent';
import { DoNotSellFlagSchema, type DoNotSellFlag, type DoNotSellSource } from '@funnel/contracts/privacy';
import {
  LeadOutcomeSchema,
  SubmissionStateSchema,
  type LeadOutcome,
  type SubmissionState,
} from '@funnel/contracts/lead-outcome';
import { PartnerLeadMetaSchema, type PartnerLeadMeta } from '@funnel/contracts/partner-api';
import { CrossSellRecordSchema, type CrossSellRecord } from '@funnel/contracts/cross-sell';
import { PostbackDeliverySchema, type PostbackDelivery } from '@funnel/contracts/postbacks';
import type { Tracking } from '@funnel/contracts/tracking';
import type { ContactIndex } from './contact-index.js';
import { FieldCipher } from './field-cipher.js';
import { evalScript } from './redis-script.js';

/**
 * A sealed answer read without opening it ({@link LeadStore.get}'s `open`): the caller learns it is there, not
 * what it says.
 */
export class Unopened {
  constructor(readonly sealed: string) {}
}

/** Stored answers, keyed by server field name (decisions.md: leads are stored under server names). */
export type StoredFields = Partial<Record<ServerField, unknown>>;

export interface LeadRecord {
  id: string;
  fields: StoredFields;
  /** Attribution and consent tokens captured at landing (JSON object). */
  tracking: Record<string, unknown>;
  submission?: SubmissionState;
  outcome?: LeadOutcome;
  /** The consent evidence recorded when the lead was submitted. */
  consent?: ConsentRecord;
  /** Set once the visitor asked us not to sell or share their information: never sent to marketing partners. */
  doNotSell?: DoNotSellFlag;
  /** Set when a partner posted the lead through the partner API: who, and where its outcome webhook goes. */
  partner?: PartnerLeadMeta;
  /** The cross-sell answers given on the matching screen. */
  crossSell?: CrossSellRecord;
  /** The duplicate index keys the lead holds its borrower by (`borrower-index.ts`). */
  borrowerKeys?: string[];
}

// Hash fields that are about the lead rather than answers start with '_' (no server field name does).
export const META = {
  tracking: '_tracking',
  submission: '_submission',
  outcome: '_outcome',
  seq: '_outcome_seq',
  consent: '_consent',
  doNotSell: '_do_not_sell',
  partner: '_partner',
  crossSell: '_cross_sell',
  sensitivePurgedAt: '_sensitive_purged_at',
  /** The duplicate index keys the lead claimed (JSON list), so a deletion request can release them. */
  borrowerKeys: '_borrower_keys',
} as const;

/**
 * Removed once the grace period after the final outcome has passed (decisions.md): what a lender needed and
 * nobody needs afterwards. The date of birth stays (sealed) for the lead's remaining life; it identifies the
 * borrower on a support request and opens no account.
 */
export const PURGED_AFTER_OUTCOME = [
  CLIENT_TO_SERVER.socialSecurityNumber,
  CLIENT_TO_SERVER.bankAccount,
  CLIENT_TO_SERVER.routingNumber,
  CLIENT_TO_SERVER.licenseID,
] as const;

// Removes the fields only from a lead that still exists, and notes when (a purge never creates a hash).
const PURGE_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
local removed = redis.call('HDEL', KEYS[1], unpack(ARGV, 3))
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return removed`;

// Sets one meta field only on a lead that still exists.
const SET_META_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], ARGV[1], ARGV[2])
return 1`;

// Records the submission, marks the lead pending and puts it in the submission outbox, all in one script: a
// lead marked submitted always has an outbox entry until its queue job exists (docs/adr/0008).
// KEYS: lead, outbox, outcome channel, pending index. ARGV: submission field, state, now ms, lead id, outcome
// field, seq field, pending outcome, deadline ms, then extra meta field/value pairs.
const START_SUBMISSION = `
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
const FINISH_SUBMISSION = `
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
const CREATE_SUBMITTED = `
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

export type NewOutcome = Omit<LeadOutcome, 'seq' | 'at'>;

/** Meta fields that name or locate the person (the consent evidence holds the IP and user agent): sealed too. */
const SEALED_META: ReadonlySet<string> = new Set([META.consent]);

// A final outcome is never replaced: the first lender decision (or the deadline) wins, whatever retries follow.
// Each change bumps the sequence and is published, so every BFF instance can push it to the browser.
const SET_OUTCOME = `
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
const FLAG_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
return redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2])`;

// Writes only while the lead still exists, so a save racing the TTL never resurrects a half-empty lead.
const UPDATE_IF_EXISTS = `
if redis.call('EXISTS', KEYS[1]) == 0 then return 0 end
redis.call('HSET', KEYS[1], unpack(ARGV, 2))
redis.call('PEXPIRE', KEYS[1], ARGV[1])
return 1`;

/**
 * Leads in Redis: one hash per lead, values JSON-encoded, sensitive fields sealed with AES-256-GCM.
 * Every key lives under the configured prefix so tests and tenants never collide.
 */
export class LeadStore {
  constructor(
    private readonly redis: Redis,
    private readonly cipher: FieldCipher,
    private readonly options: {
      keyPrefix: string;
      ttlMs: number;
      /** When given, every saved email and phone is indexed to its lead, so a deletion request can find it. */
      contactIndex?: ContactIndex;
      /**
       * Which answers are sealed at rest; default every sensitive and personal field
       * ({@link isSealedServerField}). The step-save bench passes the older, sensitive-only set as its baseline.
       */
      sealed?: (field: string) => boolean;
    },
  ) {
    this.sealed = options.sealed ?? isSealedServerField;
  }

  private readonly sealed: (field: string) => boolean;

  /** 128-bit random, URL-safe; never derived from anything a visitor could guess. */
  static newLeadId(): string {
    return randomBytes(16).toString('base64url');
  }

  key(id: string): string {
    return `${this.options.keyPrefix}lead:${id}`;
  }

  async create(fields: StoredFields, tracking: Record<string, unknown> = {}): Promise<string> {
    const id = LeadStore.newLeadId();
    const now = new Date().toISOString();
    const hash = this.encode(id, { ...fields, created_at: now, updated_at: now });
    hash[META.tracking] = JSON.stringify(tracking);
    await this.redis.multi().hset(this.key(id), hash).pexpire(this.key(id), this.options.ttlMs).exec();
    await this.indexContact(id, fields);
    return id;
  }

  /**
   * The lead, its sealed answers opened; with `open`, only those it accepts, the others read as {@link Unopened}
   * (a step save opens only what its checks compare, so a save opens nothing it does not need).
   */
  async get(id: string, options: { open?: (field: string) => boolean } = {}): Promise<LeadRecord | null> {
    const raw = await this.redis.hgetall(this.key(id));
    if (Object.keys(raw).length === 0) return null;
    const answers: Record<string, string> = {};
    for (const [field, value] of Object.entries(raw)) if (!field.startsWith('_')) answers[field] = value;
    const {
      [META.tracking]: tracking,
      [META.submission]: submission,
      [META.outcome]: outcome,
      [META.consent]: consent,
      [META.doNotSell]: doNotSell,
      [META.partner]: partner,
      [META.crossSell]: crossSell,
      [META.borrowerKeys]: borrowerKeys,
    } = raw;
    return {
      id,
      fields: this.decode(id, answers, options.open),
      tracking: tracking ? JSON.parse(tracking) : {},
      ...(submission ? { submission: SubmissionStateSchema.parse(JSON.parse(submission)) } : {}),
      ...(outcome ? { outcome: LeadOutcomeSchema.parse(JSON.parse(outcome)) } : {}),
      ...(consent
        ? { consent: ConsentRecordSchema.parse(JSON.parse(this.openValue(consent, `${id}:${META.consent}`))) }
        : {}),
      ...(doNotSell ? { doNotSell: DoNotSellFlagSchema.parse(JSON.parse(doNotSell)) } : {}),
      ...(partner ? { partner: PartnerLeadMetaSchema.parse(JSON.parse(partner)) } : {}),
      ...(crossSell ? { crossSell: CrossSellRecordSchema.parse(JSON.parse(crossSell)) } : {}),
      ...(borrowerKeys ? { borrowerKeys: z.array(z.string()).parse(JSON.parse(borrowerKeys)) } : {}),
    };
  }

  /** The partner who posted the lead, without opening its sealed fields; undefined for a funnel lead. */
  async getPartner(id: string): Promise<PartnerLeadMeta | undefined> {
    const raw = await this.redis.hget(this.key(id), META.partner);
    return raw ? PartnerLeadMetaSchema.parse(JSON.parse(raw)) : undefined;
  }

  /**
   * Records the submission once, with any extra meta fields (the consent record): 'created' the first time,
   * 'already' for a double click, a retry or a second tab, 'missing' when the lead no longer exists.
   */
  async startSubmission(
    id: string,
    state: SubmissionState,
    extra: Record<string, string> = {},
  ): Promise<'created' | 'already' | 'missing'> {
    const pending = { outcome: 'pending', at: new Date().toISOString() };
    const result = await evalScript(
      this.redis,
      START_SUBMISSION,
      4,
      this.key(id),
      this.outboxKey,
      this.outcomeChannel,
      this.pendingKey,
      META.submission,
      JSON.stringify(state),
      Date.now(),
      id,
      META.outcome,
      META.seq,
      JSON.stringify(pending),
      Date.parse(state.deadlineAt),
      ...Object.entries(this.sealMeta(id, extra)).flat(),
    );
    return result === 1 ? 'created' : result === 0 ? 'already' : 'missing';
  }

  /**
   * Records the submission of a lead that will not be posted (a duplicate borrower) with its final `outcome`,
   * once: 'created', 'already' when it was submitted before, 'missing' when the lead is gone.
   */
  async finishSubmission(
    id: string,
    state: SubmissionState,
    outcome: NewOutcome,
    extra: Record<string, string> = {},
  ): Promise<'created' | 'already' | 'missing'> {
    const result = await evalScript(
      this.redis,
      FINISH_SUBMISSION,
      2,
      this.key(id),
      this.outcomeChannel,
      META.submission,
      JSON.stringify(state),
      id,
      META.outcome,
      META.seq,
      JSON.stringify({ ...outcome, at: new Date().toISOString() }),
      ...Object.entries(this.sealMeta(id, extra)).flat(),
    );
    return result === 1 ? 'created' : result === 0 ? 'already' : 'missing';
  }

  /**
   * Creates a complete lead under `id`, already submitted and pending, with its meta fields and its retained
   * consent, in one step (partner API). With `idempotency`, the key must still hold `claim` and ends bound to
   * the lead in the same step. 'created', 'lost-claim' when another request took the key over, 'exists' when
   * the id is taken.
   */
  async createSubmitted(
    id: string,
    input: {
      fields: StoredFields;
      tracking: Record<string, unknown>;
      state: SubmissionState;
      meta: Record<string, string>;
      consent: { record: RetainedConsent; ttlMs: number };
      idempotency?: { key: string; claim: string; ttlMs: number };
    },
  ): Promise<'created' | 'lost-claim' | 'exists'> {
    const now = new Date();
    const hash = this.encode(id, {
      ...input.fields,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    hash[META.tracking] = JSON.stringify(input.tracking);
    hash[META.submission] = JSON.stringify(input.state);
    hash[META.outcome] = JSON.stringify({ outcome: 'pending', at: now.toISOString(), seq: 1 });
    hash[META.seq] = '1';
    Object.assign(hash, this.sealMeta(id, input.meta));
    const pairs = Object.entries(hash);
    const result = await evalScript(
      this.redis,
      CREATE_SUBMITTED,
      5,
      this.key(id),
      this.outboxKey,
      this.outcomeChannel,
      input.idempotency?.key ?? this.key(id),
      this.pendingKey,
      this.options.ttlMs,
      now.getTime(),
      id,
      input.idempotency?.claim ?? '',
      input.idempotency?.ttlMs ?? 0,
      pairs.length,
      ...pairs.flat(),
      this.consentKey(id),
      this.sealRetainedConsent(input.consent.record),
      input.consent.ttlMs,
      Date.parse(input.state.deadlineAt),
    );
    if (result === 1) await this.indexContact(id, input.fields);
    return result === 1 ? 'created' : result === 0 ? 'lost-claim' : 'exists';
  }

  /**
   * The submission outbox: leads marked submitted whose queue job may not exist yet, scored by when. The entry
   * goes once the job is known to exist ({@link outboxDone}); the reconciler enqueues what stays too long.
   */
  get outboxKey(): string {
    return `${this.options.keyPrefix}submission-outbox`;
  }

  /**
   * Submitted leads without a final outcome, scored by their decision deadline: what the reconciler watches.
   * The submission scripts add a lead; storing its final outcome removes it.
   */
  get pendingKey(): string {
    return `${this.options.keyPrefix}submission-pending`;
  }

  /** Submitted leads still without a final outcome whose deadline is before `beforeMs` (all with +Infinity). */
  async pendingBefore(beforeMs: number, limit = 5000): Promise<string[]> {
    return this.redis.zrangebyscore(this.pendingKey, '-inf', beforeMs, 'LIMIT', 0, limit);
  }

  /** Forgets a lead in the pending index (it is gone). */
  async pendingDone(id: string): Promise<void> {
    await this.redis.zrem(this.pendingKey, id);
  }

  /** Leads in the outbox since before `olderThanMs` (epoch ms), oldest first. */
  async outboxBefore(olderThanMs: number, limit = 500): Promise<string[]> {
    return this.redis.zrangebyscore(this.outboxKey, '-inf', olderThanMs, 'LIMIT', 0, limit);
  }

  /** Removes a lead from the outbox once its job exists (or it no longer needs one). */
  async outboxDone(id: string): Promise<void> {
    await this.redis.zrem(this.outboxKey, id);
  }

  async updateSubmission(id: string, patch: Partial<SubmissionState>): Promise<void> {
    const current = await this.redis.hget(this.key(id), META.submission);
    if (!current) return;
    const next = SubmissionStateSchema.parse({ ...JSON.parse(current), ...patch });
    await this.redis.hset(this.key(id), META.submission, JSON.stringify(next));
  }

  /** {@link getProgress} of many leads in one round trip (the reconciler reads every pending lead). */
  async getProgressMany(
    ids: readonly string[],
  ): Promise<({ submission?: SubmissionState; outcome?: LeadOutcome } | undefined)[]> {
    if (ids.length === 0) return [];
    const pipeline = this.redis.pipeline();
    for (const id of ids) pipeline.hmget(this.key(id), META.submission, META.outcome);
    const results = (await pipeline.exec()) ?? [];
    return results.map(([error, value]) => {
      const [submission, outcome] = (error ? [] : value) as (string | null)[];
      // A hash always holds its submission once submitted; none means the lead is gone (or never submitted).
      if (!submission) return undefined;
      return {
        submission: SubmissionStateSchema.parse(JSON.parse(submission)),
        ...(outcome ? { outcome: LeadOutcomeSchema.parse(JSON.parse(outcome)) } : {}),
      };
    });
  }

  /** The submission state and outcome alone, without opening the lead's answers; undefined when it is gone. */
  async getProgress(
    id: string,
  ): Promise<{ submission?: SubmissionState; outcome?: LeadOutcome } | undefined> {
    const [exists, submission, outcome] = await this.redis
      .multi()
      .exists(this.key(id))
      .hget(this.key(id), META.submission)
      .hget(this.key(id), META.outcome)
      .exec()
      .then((results) => (results ?? []).map(([, value]) => value));
    if (!exists) return undefined;
    return {
      ...(typeof submission === 'string'
        ? { submission: SubmissionStateSchema.parse(JSON.parse(submission)) }
        : {}),
      ...(typeof outcome === 'string' ? { outcome: LeadOutcomeSchema.parse(JSON.parse(outcome)) } : {}),
    };
  }

  /** The lead's attribution, without opening its sealed fields; undefined when the lead is gone. */
  async getTracking(id: string): Promise<Partial<Tracking> | undefined> {
    const raw = await this.redis.hget(this.key(id), META.tracking);
    return raw ? (JSON.parse(raw) as Partial<Tracking>) : undefined;
  }

  async getOutcome(id: string): Promise<LeadOutcome | undefined> {
    const raw = await this.redis.hget(this.key(id), META.outcome);
    return raw ? LeadOutcomeSchema.parse(JSON.parse(raw)) : undefined;
  }

  /**
   * Stores a new outcome and publishes it. Returns the outcome in force afterwards: the new one, or the final
   * outcome that was already there (finals are never replaced). Undefined when the lead is gone.
   */
  async setOutcome(id: string, outcome: NewOutcome): Promise<LeadOutcome | undefined> {
    const payload = JSON.stringify({ ...outcome, at: new Date().toISOString() });
    const result = (await evalScript(
      this.redis,
      SET_OUTCOME,
      3,
      this.key(id),
      this.outcomeChannel,
      this.pendingKey,
      META.outcome,
      META.seq,
      payload,
      id,
    )) as string | null;
    return result ? LeadOutcomeSchema.parse(JSON.parse(result)) : undefined;
  }

  /**
   * Claims the right to post this lead to the lender network for `ttlMs`. Two workers holding the same job
   * (a lost lock) never post at once; the idempotency key covers the rest.
   */
  async claimPost(id: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(`${this.key(id)}:posting`, '1', 'PX', ttlMs, 'NX')) === 'OK';
  }

  /** Ends a claim taken with {@link claimPost} once the post has answered or failed. */
  async releasePost(id: string): Promise<void> {
    await this.redis.del(`${this.key(id)}:posting`);
  }

  /** The pub/sub channel on which outcome changes are announced (`{ leadId, seq }`). */
  get outcomeChannel(): string {
    return `${this.options.keyPrefix}${OUTCOME_CHANNEL}`;
  }

  /** Saves answers onto an existing lead; false when the lead is gone (expired or never existed). */
  async update(id: string, fields: StoredFields): Promise<boolean> {
    const hash = this.encode(id, { ...fields, updated_at: new Date().toISOString() });
    const args = Object.entries(hash).flat();
    const done = await evalScript(this.redis, UPDATE_IF_EXISTS, 1, this.key(id), this.options.ttlMs, ...args);
    if (done === 1) await this.indexContact(id, fields);
    return done === 1;
  }

  /**
   * Marks the lead as not to be sold or shared with marketing partners: 'flagged' the first time, 'already'
   * when it was flagged before (the first source and time are kept), 'missing' when the lead is gone.
   */
  async flagDoNotSell(id: string, source: DoNotSellSource): Promise<'flagged' | 'already' | 'missing'> {
    const flag: DoNotSellFlag = { source, at: new Date().toISOString() };
    const result = await evalScript(
      this.redis,
      FLAG_IF_EXISTS,
      1,
      this.key(id),
      META.doNotSell,
      JSON.stringify(flag),
    );
    return result === 1 ? 'flagged' : result === 0 ? 'already' : 'missing';
  }

  /** Removes answers (e.g. a dependent field that no longer applies). */
  async removeFields(id: string, fields: readonly ServerField[]): Promise<void> {
    if (fields.length > 0) await this.redis.hdel(this.key(id), ...fields);
  }

  async delete(id: string): Promise<void> {
    await this.redis.del(this.key(id));
  }

  /**
   * Erases leads for good: each lead's hash, its posting claim and its retained consent record. Returns how
   * many of the leads still existed.
   */
  async deleteLeads(ids: readonly string[]): Promise<number> {
    if (ids.length === 0) return 0;
    const results = await this.redis
      .multi()
      .del(...ids.map((id) => this.key(id)))
      .del(...ids.flatMap((id) => [`${this.key(id)}:posting`, this.consentKey(id), this.postbacksKey(id)]))
      .exec();
    const existed = results?.[0]?.[1];
    return typeof existed === 'number' ? existed : 0;
  }

  /**
   * Removes SSN, bank account, routing and licence numbers ({@link PURGED_AFTER_OUTCOME}) and notes when.
   * Returns how many fields were removed, or -1 when the lead is gone.
   */
  async purgeSensitive(id: string): Promise<number> {
    const removed = await evalScript(
      this.redis,
      PURGE_IF_EXISTS,
      1,
      this.key(id),
      META.sensitivePurgedAt,
      JSON.stringify(new Date().toISOString()),
      ...PURGED_AFTER_OUTCOME,
    );
    return Number(removed);
  }

  /** Stores the cross-sell answers on the lead; false when the lead is gone. */
  async setCrossSell(id: string, record: CrossSellRecord): Promise<boolean> {
    const done = await evalScript(
      this.redis,
      SET_META_IF_EXISTS,
      1,
      this.key(id),
      META.crossSell,
      JSON.stringify(CrossSellRecordSchema.parse(record)),
    );
    return done === 1;
  }

  /** Where the attempts at a lead's affiliate postbacks are recorded. */
  postbacksKey(id: string): string {
    return `${this.options.keyPrefix}postbacks:${id}`;
  }

  /** Records one postback attempt; the record lives `ttlMs` after the latest attempt. */
  async recordPostback(id: string, delivery: PostbackDelivery, ttlMs: number): Promise<void> {
    const key = this.postbacksKey(id);
    await this.redis
      .multi()
      .rpush(key, JSON.stringify(PostbackDeliverySchema.parse(delivery)))
      .pexpire(key, ttlMs)
      .exec();
  }

  /** Every postback attempt recorded for a lead, oldest first. */
  async getPostbacks(id: string): Promise<PostbackDelivery[]> {
    const raw = await this.redis.lrange(this.postbacksKey(id), 0, -1);
    return raw.map((entry) => PostbackDeliverySchema.parse(JSON.parse(entry)));
  }

  /** Where a lead's consent evidence is kept apart from the lead, for the retention period. */
  consentKey(id: string): string {
    return `${this.options.keyPrefix}consent:${id}`;
  }

  /**
   * Keeps the consent evidence for `ttlMs` (years), beyond the lead's own life. The first record stays: consent
   * is given once per lead. Returns false when one was already kept.
   */
  async retainConsent(record: RetainedConsent, ttlMs: number): Promise<boolean> {
    const value = this.sealRetainedConsent(record);
    return (await this.redis.set(this.consentKey(record.leadId), value, 'PX', ttlMs, 'NX')) === 'OK';
  }

  /** The retained consent evidence of a lead, as long as it is kept (even after the lead is gone). */
  async getRetainedConsent(id: string): Promise<RetainedConsent | undefined> {
    const raw = await this.redis.get(this.consentKey(id));
    return raw ? openRetainedConsent(this.cipher, id, raw) : undefined;
  }

  /** The retained consent as stored: sealed whole (it names the person, their contact, IP and user agent). */
  private sealRetainedConsent(record: RetainedConsent): string {
    const json = JSON.stringify(RetainedConsentSchema.parse(record));
    return this.cipher.seal(json, retainedConsentContext(record.leadId));
  }

  /** The meta pairs with the ones naming the person sealed ({@link SEALED_META}). */
  private sealMeta(id: string, meta: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, value] of Object.entries(meta))
      out[field] = SEALED_META.has(field) ? this.cipher.seal(value, `${id}:${field}`) : value;
    return out;
  }

  /** A stored value opened when sealed; a value written in clear by an older version is read as it is. */
  private openValue(value: string, context: string): string {
    return FieldCipher.isSealed(value) ? this.cipher.open(value, context) : value;
  }

  private async indexContact(id: string, fields: StoredFields): Promise<void> {
    const email = fields[CLIENT_TO_SERVER.email];
    const phone = fields[CLIENT_TO_SERVER.phone];
    if (typeof email !== 'string' && typeof phone !== 'string') return;
    await this.options.contactIndex?.add(id, {
      email: typeof email === 'string' ? email : undefined,
      phone: typeof phone === 'string' ? phone : undefined,
    });
  }

  private encode(id: string, fields: StoredFields): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      const json = JSON.stringify(value);
      out[field] = this.sealed(field) ? this.cipher.seal(json, `${id}:${field}`) : json;
    }
    return out;
  }

  private decode(id: string, raw: Record<string, string>, open?: (field: string) => boolean): StoredFields {
    const out: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(raw)) {
      if (open && FieldCipher.isSealed(value) && !open(field)) out[field] = new Unopened(value);
      else out[field] = JSON.parse(this.openValue(value, `${id}:${field}`));
    }
    return out as StoredFields;
  }
}

/** The associated data a retained consent record is sealed with: its lead id, so a copy under another lead fails. */
export function retainedConsentContext(leadId: string): string {
  return `${leadId}:consent`;
}

/**
 * A retained consent record as read from `{prefix}consent:{leadId}`: opened when sealed, and read as it is when an
 * older version wrote it in clear.
 */
export function openRetainedConsent(
  cipher: { open(sealed: string, context: string): string },
  leadId: string,
  raw: string,
): RetainedConsent {
  const json = FieldCipher.isSealed(raw) ? cipher.open(raw, retainedConsentContext(leadId)) : raw;
  return RetainedConsentSchema.parse(JSON.parse(json));
}
