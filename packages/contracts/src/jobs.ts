import * as z from 'zod';
import { OptOutKindSchema } from './buyer-opt-out.js';
import { CROSS_SELL_QUESTIONS, type CrossSellQuestion } from './cross-sell.js';
import { POSTBACK_JOB_EVENTS, PostbackJobEventSchema } from './postbacks.js';

/**
 * Every job carries the lead id and nothing else (submission, partner webhook, mailing-list sync, cross-sell
 * forwarding, TrustedForm retain, sensitive-data purge): the worker reads what it needs from the store when it
 * runs, so a job never holds personal data and always acts on the lead as it is then.
 */
export const LeadJobSchema = z.object({ leadId: z.string().min(16).max(64) });
export type LeadJob = z.infer<typeof LeadJobSchema>;
/** The submission job's payload (the lead id). */
export type SubmitLeadJob = LeadJob;

/** Tell the buyers that received a lead that its borrower opted out (`buyer-opt-out.ts`). */
export const BuyerOptOutJobSchema = LeadJobSchema.extend({
  kind: OptOutKindSchema,
  requestedAt: z.iso.datetime(),
  /** The buyers told already: a retry tells only the others. */
  told: z.array(z.string().max(40)).max(200).default([]),
});
export type BuyerOptOutJob = z.input<typeof BuyerOptOutJobSchema>;

/** An affiliate's lead reached an outcome the affiliate's postback fires on. */
export const AffiliatePostbackJobSchema = LeadJobSchema.extend({ event: PostbackJobEventSchema });
export type AffiliatePostbackJob = z.infer<typeof AffiliatePostbackJobSchema>;

/**
 * A manager's test of a buyer (ADR 0022): the sample lead sent to `buyerId` through its adapter by a worker, under
 * a key of its own (`requestId`); the job's return value is the answer. Holds no lead of a borrower.
 */
export const BuyerTestJobSchema = z.object({
  buyerId: z.string().regex(/^[a-z0-9][a-z0-9-]{0,39}$/),
  requestId: z.string().regex(/^[A-Za-z0-9_-]{8,64}$/),
});
export type BuyerTestJob = z.infer<typeof BuyerTestJobSchema>;

/** A scheduled pass (the reconciler) carries nothing: it looks at everything there is when it runs. */
export const ScheduledPassJobSchema = z.object({});

/** Mailing-list sync: when a sync happens for a lead, which names its job. */
export const MAILING_LIST_SYNC_TRIGGERS = ['email-saved', 'submitted'] as const;
export type MailingListSyncTrigger = (typeof MAILING_LIST_SYNC_TRIGGERS)[number];

/**
 * A job's BullMQ options as the catalog states them: the part of BullMQ's `JobsOptions` the catalog uses, written
 * here so that contracts stays free of BullMQ (`@funnel/server-runtime/job-queue` hands them to BullMQ).
 */
export interface JobOptions {
  attempts?: number;
  backoff?: { type: 'fixed' | 'exponential'; delay: number };
  removeOnComplete?: boolean | number | KeepJobs;
  removeOnFail?: boolean | number | KeepJobs;
}

/** How many finished jobs BullMQ keeps: up to `age` seconds old (and at most `count`). */
type KeepJobs = { age: number; count?: number } | { count: number };

/**
 * One job of the catalog: its queue, its job name, its payload schema, its options and its job-id rule.
 * `Key` is what names a job besides its payload (the mailing-list trigger, the cross-sell question); `void` for
 * most jobs.
 */
export interface JobDefinition<Schema extends z.ZodType = z.ZodType, Key = void> {
  queue: string;
  name: string;
  schema: Schema;
  options: JobOptions;
  /** The job id: adding a job whose id is waiting or kept adds nothing, so repeats and retries are one job. */
  jobId: (payload: z.infer<Schema>, key: Key) => string;
  /** Every job id a lead can have on this queue: what a deletion request removes. */
  leadJobIds: (leadId: string) => string[];
}

function defineJob<Schema extends z.ZodType, Key = void>(
  definition: JobDefinition<Schema, Key>,
): JobDefinition<Schema, Key> {
  return definition;
}

const DAY_S = 24 * 3600;
/** Attempts and backoff for calls to a third party that may be down for a while (about 20 minutes in all). */
const THIRD_PARTY_RETRIES = { attempts: 8, backoff: { type: 'exponential', delay: 5_000 } } as const;
/** Jobs named by the lead id alone: one per lead, however often it is added. */
const byLeadId = {
  jobId: ({ leadId }: LeadJob) => leadId,
  leadJobIds: (leadId: string) => [leadId],
};

/**
 * The job catalog: every queue, its job name, payload schema, options and job-id rule. Producers add jobs with
 * `enqueue` and consumers start with `startQueueWorker` (`@funnel/server-runtime/job-queue`), both from here.
 */
export const JOBS = {
  /**
   * Submit a complete lead to the lender network (or walk its buyers). One job per lead. Attempts and backoff
   * apply to the submission post; polling is paced by the worker itself.
   */
  submitLead: defineJob({
    queue: 'lead-submission',
    name: 'submit-lead',
    schema: LeadJobSchema,
    options: {
      // A failed post is tried again at the poll cadence, not after a growing backoff: the lender may already
      // have decided (the idempotency key makes the retry safe), and every second waited is a second late.
      // Eight attempts over ~15 s of backoff plus the post timeouts ride out a short upstream outage.
      attempts: 8,
      backoff: { type: 'fixed', delay: 2000 },
      removeOnComplete: { age: DAY_S, count: 10_000 },
      removeOnFail: { age: 7 * DAY_S },
    },
    ...byLeadId,
  }),
  /**
   * A partner lead reached its final outcome: tell the partner's webhook. One delivery per lead however often its
   * outcome is settled. Eight attempts with exponential backoff from 10 s span about 21 minutes of a partner's
   * downtime; after that the partner still has GET /api/v1/partner/leads/:id.
   */
  partnerWebhook: defineJob({
    queue: 'partner-webhooks',
    name: 'deliver-partner-webhook',
    schema: LeadJobSchema,
    options: {
      attempts: 8,
      backoff: { type: 'exponential', delay: 10_000 },
      removeOnComplete: { age: 7 * DAY_S, count: 10_000 },
      removeOnFail: { age: 7 * DAY_S },
    },
    ...byLeadId,
  }),
  /**
   * Sync the lead's contact to the mailing list (Brevo): on the email step and again on submission. One job per
   * trigger: a double click or a retry while it waits adds nothing, and a completed job is removed so a later
   * trigger of the same kind (the visitor corrects their email) syncs again.
   */
  mailingListSync: defineJob({
    queue: 'mailing-list',
    name: 'mailing-list-sync',
    schema: LeadJobSchema,
    options: { ...THIRD_PARTY_RETRIES, removeOnComplete: true, removeOnFail: { age: 7 * DAY_S } },
    jobId: ({ leadId }, trigger: MailingListSyncTrigger) => `${leadId}.${trigger}`,
    leadJobIds: (leadId) => MAILING_LIST_SYNC_TRIGGERS.map((trigger) => `${leadId}.${trigger}`),
  }),
  /** Forward the lead's cross-sell record to the cross-sell partner: one job per question answered yes. */
  crossSellForward: defineJob({
    queue: 'cross-sell',
    name: 'cross-sell-forward',
    schema: LeadJobSchema,
    options: { ...THIRD_PARTY_RETRIES, removeOnComplete: true, removeOnFail: { age: 7 * DAY_S } },
    jobId: ({ leadId }, question: CrossSellQuestion) => `${leadId}.${question}`,
    leadJobIds: (leadId) => CROSS_SELL_QUESTIONS.map((question) => `${leadId}.${question}`),
  }),
  /** Retain the TrustedForm certificate of a sold lead (TrustedForm API v4), once per lead. */
  trustedFormRetain: defineJob({
    queue: 'trustedform',
    name: 'trustedform-retain',
    schema: LeadJobSchema,
    options: {
      ...THIRD_PARTY_RETRIES,
      removeOnComplete: { age: 7 * DAY_S },
      removeOnFail: { age: 30 * DAY_S },
    },
    ...byLeadId,
  }),
  /**
   * Tell the lead's affiliate about its conversion (the affiliate's postback URL): one postback per lead and
   * event, however often the outcome is settled. Event `returned` (a buyer's approved return, ADR 0020) reverses
   * the affiliate's payout, and tells the affiliate when it takes reversals; `return_reversed` (a manager undid
   * that return, ADR 0021) pays it again, and tells the affiliate when it was told of the reversal. Kept a week once delivered (bull-board shows them), a month when
   * every attempt failed.
   */
  affiliatePostback: defineJob({
    queue: 'affiliate-postbacks',
    name: 'affiliate-postback',
    schema: AffiliatePostbackJobSchema,
    options: {
      ...THIRD_PARTY_RETRIES,
      removeOnComplete: { age: 7 * DAY_S },
      removeOnFail: { age: 30 * DAY_S },
    },
    jobId: ({ leadId, event }) => `${leadId}.${event}`,
    leadJobIds: (leadId) => POSTBACK_JOB_EVENTS.map((event) => `${leadId}.${event}`),
  }),
  /**
   * Tell every buyer that received the lead that its borrower opted out (issue 41): one job per lead and kind of
   * request. Twelve attempts with exponential backoff from a minute span about three days, well inside the 10
   * business days the FCC's rule allows; a buyer told is not told again on a retry. Not among a lead's jobs a
   * deletion request removes: a deletion is one of the things it tells. Kept a month either way.
   */
  buyerOptOut: defineJob({
    queue: 'buyer-opt-outs',
    name: 'buyer-opt-out',
    schema: BuyerOptOutJobSchema,
    options: {
      attempts: 12,
      backoff: { type: 'exponential', delay: 60_000 },
      removeOnComplete: { age: 30 * DAY_S },
      removeOnFail: { age: 30 * DAY_S },
    },
    jobId: ({ leadId, kind }) => `${leadId}.${kind}`,
    leadJobIds: () => [],
  }),
  /**
   * Remove SSN, bank and licence numbers once the grace period after the final outcome has passed, once per
   * lead. A purge that keeps failing is a bug to look at, not a third party to wait for: fewer, slower attempts.
   */
  sensitiveDataPurge: defineJob({
    queue: 'data-retention',
    name: 'sensitive-data-purge',
    schema: LeadJobSchema,
    options: {
      attempts: 5,
      backoff: { type: 'exponential', delay: 60_000 },
      removeOnComplete: true,
      removeOnFail: { age: 30 * DAY_S },
    },
    ...byLeadId,
  }),
  /**
   * The reconciler's pass, produced by a BullMQ job scheduler every `RECONCILE_INTERVAL_MS`; its job id is the
   * scheduler's (the id deployed workers already upserted: another would make a second schedule). It holds no
   * lead's job.
   */
  reconcile: defineJob({
    queue: 'reconciler',
    name: 'reconcile',
    schema: ScheduledPassJobSchema,
    options: { removeOnComplete: 100, removeOnFail: 100 },
    jobId: () => 'reconcile',
    leadJobIds: () => [],
  }),
  /**
   * The sample lead sent to one buyer on a manager's request (ADR 0022), answered while the manager waits: one
   * attempt (a second would post the sample lead again), kept an hour for its answer.
   */
  buyerTestLead: defineJob({
    queue: 'buyer-tests',
    name: 'buyer-test-lead',
    schema: BuyerTestJobSchema,
    options: { attempts: 1, removeOnComplete: { age: 3600 }, removeOnFail: { age: 3600 } },
    jobId: ({ requestId }) => requestId,
    leadJobIds: () => [],
  }),
} as const;

export type JobKey = keyof typeof JOBS;

/** BullMQ's key prefix under the deployment's key prefix, shared by producers (BFF) and consumers (worker). */
export function queuePrefix(keyPrefix: string): string {
  return `${keyPrefix}bull`;
}

/** Every job id a lead can have, per queue: what a deletion request removes. */
export function leadJobIds(leadId: string): Array<{ queue: string; jobIds: string[] }> {
  return Object.values(JOBS)
    .map((job) => ({ queue: job.queue, jobIds: job.leadJobIds(leadId) }))
    .filter(({ jobIds }) => jobIds.length > 0);
}

/** The Redis pub/sub channel (under the key prefix) on which outcome changes are published. */
export const OUTCOME_CHANNEL = 'lead-outcomes';

/** A message on the outcome channel. */
export const OutcomeMessageSchema = z.object({
  leadId: z.string(),
  seq: z.number().int().positive(),
  /** The W3C trace context of the span that decided the outcome, when tracing is on (docs/tracing.md). */
  traceparent: z.string().max(128).optional(),
});
export type OutcomeMessage = z.infer<typeof OutcomeMessageSchema>;
