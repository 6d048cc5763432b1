import type { Redis } from 'ioredis';
import {
  LeadOutcomeSchema,
  SubmissionStateSchema,
  type LeadOutcome,
  type SubmissionState,
} from '@funnel/contracts/lead-outcome';
import type { RedisKeys } from './keys.js';
import type { LeadCodec } from './lead-codec.js';
import { META, type NewOutcome, type StoredFields } from './lead-record.js';
import {
  COMPLETE_EVIDENCE,
  CREATE_SUBMITTED,
  FINISH_SUBMISSION,
  SET_OUTCOME,
  START_SUBMISSION,
} from './lead-scripts.js';
import { evalScript } from './redis-script.js';
import type { RetainedConsents } from './retained-consent.js';
import type { SubmissionEvidence } from './submission-evidence.js';

/** A lead's submission state and outcome, read without opening its answers. */
export interface LeadProgress {
  submission?: SubmissionState;
  outcome?: LeadOutcome;
}

/**
 * The submission and outcome fields of the lead hash (`_submission`, `_outcome`, `_outcome_seq`), written by
 * scripts that keep the submission indexes (`submission-index.ts`) and the outcome channel in step with them.
 * {@link LeadStore} answers through this; its callers need not know it is here.
 */
export class LeadSubmissions {
  constructor(
    private readonly deps: {
      redis: Redis;
      keys: RedisKeys;
      codec: LeadCodec;
      consents: Pick<RetainedConsents, 'seal'>;
      /** The lead hash TTL. */
      ttlMs: number;
      /** Called once a complete lead was created ({@link createSubmitted}): the contact index. */
      onCreated: (id: string, fields: StoredFields) => Promise<void>;
    },
  ) {}

  /**
   * Records the submission once, with its evidence and any extra meta fields (the consent record), in one step:
   * 'created' the first time, 'already' for a double click, a retry or a second tab, 'missing' when the lead no
   * longer exists.
   */
  async startSubmission(
    id: string,
    state: SubmissionState,
    evidence: SubmissionEvidence,
    extra: Record<string, string> = {},
  ): Promise<'created' | 'already' | 'missing'> {
    const pending = { outcome: 'pending', at: new Date().toISOString() };
    const result = await evalScript(
      this.deps.redis,
      START_SUBMISSION,
      4,
      this.deps.keys.lead(id),
      this.deps.keys.submissionOutbox,
      this.deps.keys.outcomeChannel,
      this.deps.keys.submissionPending,
      META.submission,
      JSON.stringify(state),
      Date.now(),
      id,
      META.outcome,
      META.seq,
      JSON.stringify(pending),
      Date.parse(state.deadlineAt),
      ...this.evidenceArgs(id, evidence),
      ...Object.entries(this.deps.codec.sealMeta(id, extra)).flat(),
    );
    return result === 1 ? 'created' : result === 0 ? 'already' : 'missing';
  }

  /**
   * Records the submission of a lead that will not be posted (a duplicate borrower) with its final `outcome` and
   * its evidence, once: 'created', 'already' when it was submitted before, 'missing' when the lead is gone.
   */
  async finishSubmission(
    id: string,
    state: SubmissionState,
    outcome: NewOutcome,
    evidence: SubmissionEvidence,
    extra: Record<string, string> = {},
  ): Promise<'created' | 'already' | 'missing'> {
    const result = await evalScript(
      this.deps.redis,
      FINISH_SUBMISSION,
      2,
      this.deps.keys.lead(id),
      this.deps.keys.outcomeChannel,
      META.submission,
      JSON.stringify(state),
      id,
      META.outcome,
      META.seq,
      JSON.stringify({ ...outcome, at: new Date().toISOString() }),
      ...this.evidenceArgs(id, evidence),
      ...Object.entries(this.deps.codec.sealMeta(id, extra)).flat(),
    );
    return result === 1 ? 'created' : result === 0 ? 'already' : 'missing';
  }

  /**
   * Writes the evidence of a submitted lead that went without it (a submission recorded before its evidence was
   * written with it): 'completed' when written now, 'complete' when it was there, 'missing' when the lead is gone
   * or was never submitted.
   */
  async completeEvidence(
    id: string,
    evidence: SubmissionEvidence,
  ): Promise<'completed' | 'complete' | 'missing'> {
    const result = await evalScript(
      this.deps.redis,
      COMPLETE_EVIDENCE,
      1,
      this.deps.keys.lead(id),
      META.submission,
      ...this.evidenceArgs(id, evidence),
    );
    return result === 1 ? 'completed' : result === 0 ? 'complete' : 'missing';
  }

  /** The scripts' evidence block (`WRITE_EVIDENCE` in lead-scripts.ts). */
  private evidenceArgs(id: string, evidence: SubmissionEvidence): Array<string | number> {
    return [
      META.evidence,
      this.deps.keys.consent(id),
      this.deps.consents.seal(evidence.consent.record),
      evidence.consent.ttlMs,
      this.deps.keys.leadEvents,
      evidence.events.length,
      ...evidence.events.map((event) => JSON.stringify(event)),
    ];
  }

  /**
   * Creates a complete lead under `id`, already submitted and pending, with its meta fields and its evidence
   * (retained consent, the lead events of its creation and submission), in one step (partner API). With `idempotency`, the key must still hold `claim` and ends bound to
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
      evidence: SubmissionEvidence;
      idempotency?: { key: string; claim: string; ttlMs: number };
    },
  ): Promise<'created' | 'lost-claim' | 'exists'> {
    const now = new Date();
    const hash = this.deps.codec.encode(id, {
      ...input.fields,
      created_at: now.toISOString(),
      updated_at: now.toISOString(),
    });
    hash[META.tracking] = JSON.stringify(input.tracking);
    hash[META.submission] = JSON.stringify(input.state);
    hash[META.outcome] = JSON.stringify({ outcome: 'pending', at: now.toISOString(), seq: 1 });
    hash[META.seq] = '1';
    Object.assign(hash, this.deps.codec.sealMeta(id, input.meta));
    const pairs = Object.entries(hash);
    const result = await evalScript(
      this.deps.redis,
      CREATE_SUBMITTED,
      5,
      this.deps.keys.lead(id),
      this.deps.keys.submissionOutbox,
      this.deps.keys.outcomeChannel,
      input.idempotency?.key ?? this.deps.keys.lead(id),
      this.deps.keys.submissionPending,
      this.deps.ttlMs,
      now.getTime(),
      id,
      input.idempotency?.claim ?? '',
      input.idempotency?.ttlMs ?? 0,
      Date.parse(input.state.deadlineAt),
      pairs.length,
      ...pairs.flat(),
      ...this.evidenceArgs(id, input.evidence),
    );
    if (result === 1) await this.deps.onCreated(id, input.fields);
    return result === 1 ? 'created' : result === 0 ? 'lost-claim' : 'exists';
  }

  async updateSubmission(id: string, patch: Partial<SubmissionState>): Promise<void> {
    const current = await this.deps.redis.hget(this.deps.keys.lead(id), META.submission);
    if (!current) return;
    const next = SubmissionStateSchema.parse({ ...JSON.parse(current), ...patch });
    await this.deps.redis.hset(this.deps.keys.lead(id), META.submission, JSON.stringify(next));
  }

  /** {@link getProgress} of many leads in one round trip (the reconciler reads every pending lead). */
  async getProgressMany(ids: readonly string[]): Promise<(LeadProgress | undefined)[]> {
    if (ids.length === 0) return [];
    const pipeline = this.deps.redis.pipeline();
    for (const id of ids) pipeline.hmget(this.deps.keys.lead(id), META.submission, META.outcome);
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
  async getProgress(id: string): Promise<LeadProgress | undefined> {
    const [exists, submission, outcome] = await this.deps.redis
      .multi()
      .exists(this.deps.keys.lead(id))
      .hget(this.deps.keys.lead(id), META.submission)
      .hget(this.deps.keys.lead(id), META.outcome)
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

  async getOutcome(id: string): Promise<LeadOutcome | undefined> {
    const raw = await this.deps.redis.hget(this.deps.keys.lead(id), META.outcome);
    return raw ? LeadOutcomeSchema.parse(JSON.parse(raw)) : undefined;
  }

  /**
   * Stores a new outcome and publishes it (with `traceparent`, the deciding span's, when given). Returns the
   * outcome in force afterwards: the new one, or the final outcome that was already there (finals are never
   * replaced). Undefined when the lead is gone.
   */
  async setOutcome(id: string, outcome: NewOutcome, traceparent?: string): Promise<LeadOutcome | undefined> {
    const payload = JSON.stringify({ ...outcome, at: new Date().toISOString() });
    const result = (await evalScript(
      this.deps.redis,
      SET_OUTCOME,
      3,
      this.deps.keys.lead(id),
      this.deps.keys.outcomeChannel,
      this.deps.keys.submissionPending,
      META.outcome,
      META.seq,
      payload,
      id,
      traceparent ?? '',
    )) as string | null;
    return result ? LeadOutcomeSchema.parse(JSON.parse(result)) : undefined;
  }
}
