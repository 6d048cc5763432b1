import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { isSensitiveServerField, type ServerField } from '@funnel/contracts/fields';
import { OUTCOME_CHANNEL } from '@funnel/contracts/jobs';
import { ConsentRecordSchema, type ConsentRecord } from '@funnel/contracts/consent';
import { DoNotSellFlagSchema, type DoNotSellFlag, type DoNotSellSource } from '@funnel/contracts/privacy';
import {
  LeadOutcomeSchema,
  SubmissionStateSchema,
  type LeadOutcome,
  type SubmissionState,
} from '@funnel/contracts/lead-outcome';
import { FieldCipher } from './field-cipher.js';

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
}

// Hash fields that are about the lead rather than answers start with '_' (no server field name does).
export const META = {
  tracking: '_tracking',
  submission: '_submission',
  outcome: '_outcome',
  seq: '_outcome_seq',
  consent: '_consent',
  doNotSell: '_do_not_sell',
} as const;

const START_SUBMISSION = `
if redis.call('EXISTS', KEYS[1]) == 0 then return -1 end
if redis.call('HSETNX', KEYS[1], ARGV[1], ARGV[2]) == 0 then return 0 end
for i = 3, #ARGV, 2 do redis.call('HSET', KEYS[1], ARGV[i], ARGV[i + 1]) end
return 1`;

export type NewOutcome = Omit<LeadOutcome, 'seq' | 'at'>;

// A final outcome is never replaced: the first lender decision (or the deadline) wins, whatever retries follow.
// Each change bumps the sequence and is published, so every BFF instance can push it to the browser.
const SET_OUTCOME = `
local current = redis.call('HGET', KEYS[1], ARGV[1])
if current then
  local state = cjson.decode(current).outcome
  if state == 'sold' or state == 'rejected' or state == 'no_lender' then return current end
end
if redis.call('EXISTS', KEYS[1]) == 0 then return false end
local seq = redis.call('HINCRBY', KEYS[1], ARGV[2], 1)
local outcome = cjson.decode(ARGV[3])
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
    private readonly options: { keyPrefix: string; ttlMs: number },
  ) {}

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
    return id;
  }

  async get(id: string): Promise<LeadRecord | null> {
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
    } = raw;
    return {
      id,
      fields: this.decode(id, answers),
      tracking: tracking ? JSON.parse(tracking) : {},
      ...(submission ? { submission: SubmissionStateSchema.parse(JSON.parse(submission)) } : {}),
      ...(outcome ? { outcome: LeadOutcomeSchema.parse(JSON.parse(outcome)) } : {}),
      ...(consent ? { consent: ConsentRecordSchema.parse(JSON.parse(consent)) } : {}),
      ...(doNotSell ? { doNotSell: DoNotSellFlagSchema.parse(JSON.parse(doNotSell)) } : {}),
    };
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
    const result = await this.redis.eval(
      START_SUBMISSION,
      1,
      this.key(id),
      META.submission,
      JSON.stringify(state),
      ...Object.entries(extra).flat(),
    );
    return result === 1 ? 'created' : result === 0 ? 'already' : 'missing';
  }

  async updateSubmission(id: string, patch: Partial<SubmissionState>): Promise<void> {
    const current = await this.redis.hget(this.key(id), META.submission);
    if (!current) return;
    const next = SubmissionStateSchema.parse({ ...JSON.parse(current), ...patch });
    await this.redis.hset(this.key(id), META.submission, JSON.stringify(next));
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
    const result = (await this.redis.eval(
      SET_OUTCOME,
      2,
      this.key(id),
      this.outcomeChannel,
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
    const done = await this.redis.eval(UPDATE_IF_EXISTS, 1, this.key(id), this.options.ttlMs, ...args);
    return done === 1;
  }

  /**
   * Marks the lead as not to be sold or shared with marketing partners: 'flagged' the first time, 'already'
   * when it was flagged before (the first source and time are kept), 'missing' when the lead is gone.
   */
  async flagDoNotSell(id: string, source: DoNotSellSource): Promise<'flagged' | 'already' | 'missing'> {
    const flag: DoNotSellFlag = { source, at: new Date().toISOString() };
    const result = await this.redis.eval(
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

  private encode(id: string, fields: StoredFields): Record<string, string> {
    const out: Record<string, string> = {};
    for (const [field, value] of Object.entries(fields)) {
      if (value === undefined) continue;
      const json = JSON.stringify(value);
      out[field] = isSensitiveServerField(field) ? this.cipher.seal(json, `${id}:${field}`) : json;
    }
    return out;
  }

  private decode(id: string, raw: Record<string, string>): StoredFields {
    const out: Record<string, unknown> = {};
    for (const [field, value] of Object.entries(raw)) {
      const json = FieldCipher.isSealed(value) ? this.cipher.open(value, `${id}:${field}`) : value;
      out[field] = JSON.parse(json);
    }
    return out as StoredFields;
  }
}
