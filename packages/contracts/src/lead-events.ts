/**
 * What happened to a lead, as the system of record keeps it (issue 10): append-only events the BFF and the
 * worker put in a Redis stream and the worker drains into PostgreSQL. Ids, names, times and attribution only:
 * never an answer a person typed, never SSN, bank, routing, licence or birth date.
 */
import * as z from 'zod';
import { ReturnReasonSchema } from './buyer-api.js';
import { MappedFieldErrorSchema } from './buyer-field-errors.js';
import { OutcomeSchema } from './lead-outcome.js';
import { ScreeningVerdictSchema } from './screening.js';
import { StepNameSchema } from './landing.js';
import { LeadSourceSchema } from './reports.js';

/** How a waterfall attempt ended. */
export const BUYER_ATTEMPT_RESULTS = ['sold', 'rejected', 'invalid', 'timeout', 'error', 'capped'] as const;
export type BuyerAttemptResult = (typeof BUYER_ATTEMPT_RESULTS)[number];

/** Why an auction's candidate stood where it did (ADR 0020): what the operator reads off an attempt. */
export const AttemptRankingSchema = z.object({
  /** 1 for the candidate posted first. */
  rank: z.number().int().positive(),
  /** `bid` for a ping-post buyer's bid; `floor` for a direct-post buyer at its floor or contract price. */
  source: z.enum(['bid', 'floor']),
  price: z.number().nonnegative(),
  pAccepted: z.number().min(0).max(1),
  pReturned: z.number().min(0).max(1),
  expectedValue: z.number().nonnegative(),
  /** The buyer's record the probabilities were learned from: posts, accepted, settled sales, returned. */
  posts: z.number().int().nonnegative(),
  accepted: z.number().int().nonnegative(),
  settledSales: z.number().int().nonnegative(),
  returned: z.number().int().nonnegative(),
});
export type AttemptRanking = z.infer<typeof AttemptRankingSchema>;

/** Where a lead's outcome is told after it is final. */
export const DELIVERY_CHANNELS = ['partner_webhook', 'affiliate_postback', 'buyer_opt_out'] as const;
export type DeliveryChannel = (typeof DELIVERY_CHANNELS)[number];

/** A W3C trace id: 32 lowercase hex digits. */
export const TraceIdSchema = z.string().regex(/^[0-9a-f]{32}$/);

const base = {
  /** Unique per event: the drain writes each once however often it is read. */
  eventId: z.string().min(8).max(80),
  leadId: z.string().min(16).max(64),
  /** ISO 8601, when it happened. */
  at: z.string(),
};

export const LeadEventSchema = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('created'),
    source: LeadSourceSchema,
    /** A partner lead's partner id, and the `Idempotency-Key` it was posted with (what the partner looks it up by). */
    partner: z.string().max(64).optional(),
    idempotencyKey: z.string().max(255).optional(),
    affiliate: z.string().max(512).optional(),
    clickId: z.string().max(512).optional(),
    utmSource: z.string().max(512).optional(),
    campaignType: z.string().max(16).optional(),
    amount: z.number().optional(),
    loanReason: z.string().max(64).optional(),
    state: z.string().max(2).optional(),
  }),
  z.object({ ...base, type: z.literal('step_completed'), step: StepNameSchema }),
  z.object({
    ...base,
    type: z.literal('submitted'),
    source: LeadSourceSchema,
    /** The OpenTelemetry trace of the submission (32 hex digits), when tracing was on (docs/tracing.md). */
    traceId: TraceIdSchema.optional(),
  }),
  z.object({
    ...base,
    type: z.literal('outcome'),
    outcome: OutcomeSchema,
    reason: z.string().max(64).optional(),
    /** The host the borrower was sent to, never the full address (it can carry tokens). */
    redirectHost: z.string().max(255).optional(),
    partnerOffer: z.boolean().optional(),
    secondsToDecision: z.number().nonnegative().optional(),
    /** A duplicate borrower's lead (never sent to buyers): the lead the borrower applied with first. */
    duplicateOf: z.string().min(16).max(64).optional(),
  }),
  /** One attempt of the buyers' waterfall (issue 13): the audit trail of who was offered the lead, at what. */
  z.object({
    ...base,
    type: z.literal('buyer_attempt'),
    /** The attempt's idempotency key: our lead id and the step number. */
    attemptKey: z.string().min(16).max(200),
    step: z.number().int().nonnegative(),
    buyer: z.string().max(40),
    tier: z.number().int().nonnegative(),
    /** The price floor posted; none for a protocol without prices. */
    floor: z.number().nonnegative().optional(),
    result: z.enum(BUYER_ATTEMPT_RESULTS),
    /** How a timed-out or failed call ended: 'timeout', 'queue_timeout' (never sent), 'response_too_large', … */
    errorKind: z.string().max(40).optional(),
    /** What the buyer pays, when sold. */
    price: z.number().nonnegative().optional(),
    latencyMs: z.number().int().nonnegative(),
    /** The buyer's field errors in our field names; never the values. */
    fieldErrors: z.array(MappedFieldErrorSchema).max(100).default([]),
    /** In an auction (ADR 0020): the candidate's place in the lead's ranking and every input of it. */
    ranking: AttemptRankingSchema.optional(),
  }),
  /** Screening's verdict on the lead's contact, before any buyer saw it (issue 41, ADR 0029): codes, no data. */
  z.object({ ...base, type: z.literal('screened'), ...ScreeningVerdictSchema.shape }),
  /**
   * The lead's personal data was erased on a verified deletion request (ADR 0007): what the system of record
   * holds of it (these events) names nobody and stays; the consent evidence went with it.
   */
  z.object({ ...base, type: z.literal('erased'), requestId: z.string().max(80) }),
  /**
   * A buyer's return of a lead it bought, in effect (ADR 0020, "Returns and conversions"): approved by the
   * buyer's rule at once or by an operator later. Reverses the sale's revenue (`price`). One per sale.
   */
  z.object({
    ...base,
    type: z.literal('returned'),
    returnId: z.string().max(80),
    buyer: z.string().max(40),
    /** The sold attempt's key. */
    attemptKey: z.string().min(16).max(200),
    reason: ReturnReasonSchema,
    /** The sale's price, taken off the revenue. */
    price: z.number().nonnegative(),
    approvedBy: z.enum(['rule', 'operator']),
    /** The operator who approved it (their sign-in, as the audit log names them), when one did. */
    operator: z.string().max(320).optional(),
    /** When the buyer filed it (`at` is when it took effect). */
    filedAt: z.string(),
  }),
  /** A return the buyer's rule did not approve at once: waiting for an operator (no revenue reversed yet). */
  z.object({
    ...base,
    type: z.literal('return_queued'),
    returnId: z.string().max(80),
    buyer: z.string().max(40),
    attemptKey: z.string().min(16).max(200),
    reason: ReturnReasonSchema,
    price: z.number().nonnegative(),
  }),
  /** An operator refused a queued return: the sale stands. */
  z.object({
    ...base,
    type: z.literal('return_rejected'),
    returnId: z.string().max(80),
    buyer: z.string().max(40),
  }),
  /**
   * A manager reversed a decided return (ADR 0021): `approved` → `reversed` (the sale stands again, its revenue
   * counts, the return leaves the buyer's cap and record) or `rejected` → `approved` (a `returned` event beside it).
   */
  z.object({
    ...base,
    type: z.literal('return_reversed'),
    returnId: z.string().max(80),
    buyer: z.string().max(40),
    attemptKey: z.string().min(16).max(200),
    from: z.enum(['approved', 'rejected']),
    to: z.enum(['reversed', 'approved']),
    price: z.number().nonnegative(),
    /** The manager's reason, as given (operators are told not to put personal data in it). */
    reason: z.string().max(500),
    /** The manager who reversed it (their sign-in, as the audit log names them). */
    operator: z.string().max(320).optional(),
  }),
  /** The payout of the lead's affiliate taken back after an approved return (the affiliate had been paid). */
  z.object({
    ...base,
    type: z.literal('payout_reversed'),
    affiliate: z.string().max(64),
    amount: z.number().nonnegative(),
  }),
  /** A payout reversal undone: the return it followed was reversed by a manager, so the payout stands again. */
  z.object({
    ...base,
    type: z.literal('payout_restored'),
    affiliate: z.string().max(64),
    amount: z.number().nonnegative(),
  }),
  /**
   * One attempt at telling a third party the lead's outcome (issue 33): the partner's webhook or the affiliate's
   * postback. The host only, never the address (a postback URL carries the affiliate's token), and the error's
   * kind, never its message. One per attempt (its id names the channel, event and attempt number).
   */
  z.object({
    ...base,
    type: z.literal('delivery_attempt'),
    channel: z.enum(DELIVERY_CHANNELS),
    /** The partner id (webhook), the affiliate (postback) or the buyer (opt-out). */
    target: z.string().max(64),
    host: z.string().max(255).optional(),
    /** What was told: the outcome (webhook), the postback's event (`sold`, `returned`, …) or the opt-out's kind. */
    event: z.string().max(32),
    attempt: z.number().int().positive(),
    maxAttempts: z.number().int().positive(),
    result: z.enum(['delivered', 'failed', 'refused']),
    /** The answer's HTTP status, when there was one. */
    status: z.number().int().optional(),
    /** How an attempt without an answer ended: `timeout`, `connection_refused`, `not_public`, … */
    errorKind: z.string().max(40).optional(),
    latencyMs: z.number().int().nonnegative(),
    /** When the queue tries again (its exponential backoff); absent when delivered or given up. */
    nextAttemptAt: z.string().optional(),
    /** The last attempt failed: nobody will try again. */
    gaveUp: z.boolean().default(false),
  }),
  /** A buyer's report of what became of a lead it bought: funded (with the amount) or not. One per sale. */
  z.object({
    ...base,
    type: z.literal('converted'),
    conversionId: z.string().max(80),
    buyer: z.string().max(40),
    attemptKey: z.string().min(16).max(200),
    funded: z.boolean(),
    amount: z.number().positive().optional(),
  }),
]);
export type LeadEvent = z.infer<typeof LeadEventSchema>;
export type LeadEventType = LeadEvent['type'];
