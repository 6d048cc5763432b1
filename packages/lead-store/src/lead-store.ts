import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import { isSealedServerField } from '@funnel/contracts/fields';
import type { RetainedConsent } from '@funnel/contracts/consent';
import type { DoNotSellFlag, DoNotSellSource } from '@funnel/contracts/privacy';
import type { LeadOutcome, SubmissionState } from '@funnel/contracts/lead-outcome';
import { PartnerLeadMetaSchema, type PartnerLeadMeta } from '@funnel/contracts/partner-api';
import { CrossSellRecordSchema, type CrossSellRecord } from '@funnel/contracts/cross-sell';
import type { Tracking } from '@funnel/contracts/tracking';
import { confirmReplicated, type ReplicaWaitConfig } from '@funnel/server-runtime/replica-wait';
import type { ContactIndex } from './contact-index.js';
import type { FieldCipher } from './field-cipher.js';
import { redisKeys, type RedisKeys } from './keys.js';
import { LeadCodec, contactOf } from './lead-codec.js';
import {
  META,
  PURGED_AFTER_OUTCOME,
  type LeadRecord,
  type NewOutcome,
  type StoredFields,
} from './lead-record.js';
import { FLAG_IF_EXISTS, PURGE_IF_EXISTS, SET_META_IF_EXISTS, UPDATE_IF_EXISTS } from './lead-scripts.js';
import { LeadSubmissions, type LeadProgress } from './lead-submissions.js';
import { PostClaim } from './post-claim.js';
import { PostbackLog } from './postback-log.js';
import { evalScript } from './redis-script.js';
import { RetainedConsents } from './retained-consent.js';
import { SubmissionIndex } from './submission-index.js';
import { storedSubmissionEvidence, type EvidencePolicy } from './submission-evidence.js';

export {
  META,
  PURGED_AFTER_OUTCOME,
  Unopened,
  type LeadRecord,
  type NewOutcome,
  type StoredFields,
} from './lead-record.js';
export type { LeadProgress } from './lead-submissions.js';
export { openRetainedConsent } from './retained-consent.js';

/**
 * Leads in Redis: one hash per lead, values JSON-encoded, sensitive fields sealed with AES-256-GCM. Every key
 * lives under the configured prefix so tests and tenants never collide (the layout: `keys.ts`). The keys kept
 * beside a lead have their own small stores (post claim, postback log, retained consent, submission indexes);
 * the methods below that reach them stay here for the BFF's and the worker's callers.
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
      /**
       * Replicas that must hold a lead's writes before they are acknowledged (docs/adr/0018): every method that
       * creates, saves, submits, claims or decides a lead waits for them, or throws `WriteNotReplicatedError`.
       * Default: no wait.
       */
      replicaWait?: ReplicaWaitConfig;
    },
  ) {
    this.keys = redisKeys(options.keyPrefix);
    this.codec = new LeadCodec(cipher, options.sealed ?? isSealedServerField);
    this.indexes = new SubmissionIndex(redis, options);
    this.postClaims = new PostClaim(redis, options);
    this.postbacks = new PostbackLog(redis, options);
    this.consents = new RetainedConsents(redis, cipher, options);
    this.submissions = new LeadSubmissions({
      redis,
      keys: this.keys,
      codec: this.codec,
      consents: this.consents,
      ttlMs: options.ttlMs,
      onCreated: (id, fields) => this.indexContact(id, fields),
    });
  }

  private readonly keys: RedisKeys;
  private readonly codec: LeadCodec;
  private readonly indexes: SubmissionIndex;
  private readonly submissions: LeadSubmissions;
  private readonly postClaims: PostClaim;
  /** Each lead's affiliate postback attempts (`record`, `list`), kept apart from the lead ({@link PostbackLog}). */
  readonly postbacks: PostbackLog;
  /**
   * The consent evidence kept apart from each lead for the retention period, even after the lead is gone
   * (`key`, `get`; keeping one goes through {@link retainConsent}, which waits for the replicas).
   */
  readonly consents: RetainedConsents;

  /** 128-bit random, URL-safe; never derived from anything a visitor could guess. */
  static newLeadId(): string {
    return randomBytes(16).toString('base64url');
  }

  key(id: string): string {
    return this.keys.lead(id);
  }

  async create(fields: StoredFields, tracking: Record<string, unknown> = {}): Promise<string> {
    const id = LeadStore.newLeadId();
    const now = new Date().toISOString();
    const hash = this.codec.encode(id, { ...fields, created_at: now, updated_at: now });
    hash[META.tracking] = JSON.stringify(tracking);
    await this.redis.multi().hset(this.key(id), hash).pexpire(this.key(id), this.options.ttlMs).exec();
    await this.indexContact(id, fields);
    await this.confirmDurable();
    return id;
  }

  /**
   * The lead, its sealed answers opened; with `open`, only those it accepts, the others read as {@link Unopened}
   * (a step save opens only what its checks compare, so a save opens nothing it does not need).
   */
  async get(id: string, options: { open?: (field: string) => boolean } = {}): Promise<LeadRecord | null> {
    const raw = await this.redis.hgetall(this.key(id));
    return Object.keys(raw).length === 0 ? null : this.codec.decodeRecord(id, raw, options.open);
  }

  /** The partner who posted the lead, without opening its sealed fields; undefined for a funnel lead. */
  async getPartner(id: string): Promise<PartnerLeadMeta | undefined> {
    const raw = await this.redis.hget(this.key(id), META.partner);
    return raw ? PartnerLeadMetaSchema.parse(JSON.parse(raw)) : undefined;
  }

  /** Records the submission once: {@link LeadSubmissions.startSubmission}. */
  async startSubmission(
    ...args: Parameters<LeadSubmissions['startSubmission']>
  ): Promise<'created' | 'already' | 'missing'> {
    return this.durableUnless('missing', await this.submissions.startSubmission(...args));
  }

  /** Records the submission of a lead that will not be posted: {@link LeadSubmissions.finishSubmission}. */
  async finishSubmission(
    ...args: Parameters<LeadSubmissions['finishSubmission']>
  ): Promise<'created' | 'already' | 'missing'> {
    return this.durableUnless('missing', await this.submissions.finishSubmission(...args));
  }

  /**
   * Writes the evidence a submitted lead went without (docs/adr/0026), built from what the lead holds, with the
   * script that writes it with a submission: {@link LeadSubmissions.completeEvidence}. A repeat request and the
   * reconciler call it; a lead whose evidence is there is left as it is.
   */
  async completeSubmission(
    id: string,
    policy: EvidencePolicy,
  ): Promise<'completed' | 'complete' | 'missing'> {
    const lead = await this.get(id);
    const evidence = lead ? storedSubmissionEvidence(lead, policy) : undefined;
    if (!evidence) return 'missing';
    const result = await this.submissions.completeEvidence(id, evidence);
    // A repeat acts on what the first request wrote: it too must survive a failover before it is answered.
    await this.confirmDurable();
    return result;
  }

  /**
   * Creates a complete lead under `id`, already submitted and pending, with its meta fields and its evidence, in
   * one step (partner API): {@link LeadSubmissions.createSubmitted}.
   */
  async createSubmitted(
    id: string,
    input: Parameters<LeadSubmissions['createSubmitted']>[1],
  ): Promise<'created' | 'lost-claim' | 'exists'> {
    // A lost claim is waited for too: the caller answers with the lead the key is bound to.
    return this.durableUnless('exists', await this.submissions.createSubmitted(id, input));
  }

  /** Leads in the outbox since before `olderThanMs` (epoch ms), oldest first ({@link SubmissionIndex}). */
  async outboxBefore(olderThanMs: number, limit?: number): Promise<string[]> {
    return this.indexes.outboxBefore(olderThanMs, limit);
  }

  /** Removes a lead from the outbox once its job exists (or it no longer needs one). */
  async outboxDone(id: string): Promise<void> {
    await this.indexes.outboxDone(id);
  }

  /** Submitted leads still without a final outcome whose deadline is before `beforeMs` (all with +Infinity). */
  async pendingBefore(beforeMs: number, limit?: number): Promise<string[]> {
    return this.indexes.pendingBefore(beforeMs, limit);
  }

  /** Forgets a lead in the pending index (it is gone). */
  async pendingDone(id: string): Promise<void> {
    await this.indexes.pendingDone(id);
  }

  async updateSubmission(id: string, patch: Partial<SubmissionState>): Promise<void> {
    await this.submissions.updateSubmission(id, patch);
    await this.confirmDurable();
  }

  /** {@link getProgress} of many leads in one round trip (the reconciler reads every pending lead). */
  async getProgressMany(ids: readonly string[]): Promise<(LeadProgress | undefined)[]> {
    return this.submissions.getProgressMany(ids);
  }

  /** The submission state and outcome alone, without opening the lead's answers; undefined when it is gone. */
  async getProgress(id: string): Promise<LeadProgress | undefined> {
    return this.submissions.getProgress(id);
  }

  /** The lead's attribution, without opening its sealed fields; undefined when the lead is gone. */
  async getTracking(id: string): Promise<Partial<Tracking> | undefined> {
    const raw = await this.redis.hget(this.key(id), META.tracking);
    return raw ? (JSON.parse(raw) as Partial<Tracking>) : undefined;
  }

  async getOutcome(id: string): Promise<LeadOutcome | undefined> {
    return this.submissions.getOutcome(id);
  }

  /**
   * Stores a new outcome and publishes it, with `traceparent` (the deciding span's) when given so that its push
   * joins the lead's trace. Returns the outcome in force afterwards: the new one, or the final outcome that was
   * already there (finals are never replaced). Undefined when the lead is gone.
   */
  async setOutcome(id: string, outcome: NewOutcome, traceparent?: string): Promise<LeadOutcome | undefined> {
    const stored = await this.submissions.setOutcome(id, outcome, traceparent);
    await this.confirmDurable();
    return stored;
  }

  /** Claims the right to post this lead to the lender network for `ttlMs` ({@link PostClaim}). */
  async claimPost(id: string, ttlMs: number): Promise<boolean> {
    const claimed = await this.postClaims.claim(id, ttlMs);
    if (claimed) {
      // Not durable, not held: the retry takes it again instead of waiting out its TTL. A release Redis refuses
      // too ends with that TTL; the durability error thrown here carries it, for the caller's log.
      await this.confirmDurable().catch(async (error: unknown) => {
        await this.postClaims.release(id).catch((releaseError: unknown) => {
          if (error instanceof Error) Object.assign(error, { claimReleaseError: String(releaseError) });
        });
        throw error;
      });
    }
    return claimed;
  }

  /** Ends a claim taken with {@link claimPost} once the post has answered or failed. */
  async releasePost(id: string): Promise<void> {
    await this.postClaims.release(id);
  }

  /** The pub/sub channel on which outcome changes are announced (`{ leadId, seq }`). */
  get outcomeChannel(): string {
    return this.keys.outcomeChannel;
  }

  /** Saves answers onto an existing lead; false when the lead is gone (expired or never existed). */
  async update(id: string, fields: StoredFields): Promise<boolean> {
    const hash = this.codec.encode(id, { ...fields, updated_at: new Date().toISOString() });
    const args = Object.entries(hash).flat();
    const done = await evalScript(this.redis, UPDATE_IF_EXISTS, 1, this.key(id), this.options.ttlMs, ...args);
    if (done === 1) {
      await this.indexContact(id, fields);
      await this.confirmDurable();
    }
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
    if (result === 1) await this.confirmDurable();
    return result === 1 ? 'flagged' : result === 0 ? 'already' : 'missing';
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
      .del(...ids.flatMap((id) => [this.keys.postClaim(id), this.keys.consent(id), this.keys.postbacks(id)]))
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

  /**
   * Keeps the consent evidence for `ttlMs` (years), beyond the lead's own life ({@link RetainedConsents}). The
   * first record stays: returns false when one was already kept.
   */
  async retainConsent(record: RetainedConsent, ttlMs: number): Promise<boolean> {
    const kept = await this.consents.retain(record, ttlMs);
    await this.confirmDurable();
    return kept;
  }

  /**
   * Waits until the configured replicas hold every write this connection sent (docs/adr/0018), so a write just
   * made survives a failover before it is acknowledged or acted on; throws `WriteNotReplicatedError` (retryable)
   * otherwise. Callers also use it before acting on a lead read back rather than written (a replayed request).
   */
  async confirmDurable(): Promise<void> {
    if (this.options.replicaWait) await confirmReplicated(this.redis, this.options.replicaWait);
  }

  /** {@link confirmDurable}, then `result`, unless `result` says nothing was written and nothing will be acted on. */
  private async durableUnless<T extends string>(nothing: T, result: T): Promise<T> {
    if (result !== nothing) await this.confirmDurable();
    return result;
  }

  private async indexContact(id: string, fields: StoredFields): Promise<void> {
    const contact = contactOf(fields);
    if (contact) await this.options.contactIndex?.add(id, contact);
  }
}
