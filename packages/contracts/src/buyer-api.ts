/**
 * The buyer API (issue 27, ADR 0020 "Returns and conversions"): a buyer that bought a lead reports a return
 * (with a reason code, within its return window and under its cap) or a conversion (funded, with an amount).
 * Server to server, with the buyer's own API key; idempotent by `Idempotency-Key`.
 */
import * as z from 'zod';
import { requiredText } from './landing.js';

/** Why a buyer returns a lead: a fixed list, so returns can be counted and ruled on by reason. */
export const RETURN_REASONS = [
  /** The phone or email does not reach the borrower. */
  'invalid_contact',
  /** The buyer already had this borrower. */
  'duplicate',
  /** The identity looks stolen or made up. */
  'fraud',
  /** The borrower says they never applied. */
  'did_not_apply',
  /** The lead is outside the buyer's filters (state, amount, income, …) as it turned out. */
  'out_of_criteria',
  /** The bank account or routing number does not verify. */
  'invalid_bank_account',
  'other',
] as const;
export const ReturnReasonSchema = z.enum(RETURN_REASONS);
export type ReturnReason = z.infer<typeof ReturnReasonSchema>;

/** Each return reason in an operator's words. */
export const RETURN_REASON_LABELS: Record<ReturnReason, string> = {
  invalid_contact: 'Phone or email does not reach the borrower',
  duplicate: 'The buyer already had this borrower',
  fraud: 'Fraud (identity stolen or made up)',
  did_not_apply: 'The borrower says they never applied',
  out_of_criteria: "Outside the buyer's criteria",
  invalid_bank_account: 'Bank account does not verify',
  other: 'Other',
};

const REFERENCE_MESSAGE =
  'reference is required: the ReferenceID (our lead id) or the IdempotencyKey / partnerLeadId of the post that sold.';

/**
 * What names the sale: our lead id (`ReferenceID` in the sync-post and ping-post protocols) or the sold
 * attempt's key (their `IdempotencyKey`, the lead-service protocol's `partnerLeadId`).
 */
const ReferenceSchema = z
  .string({ error: REFERENCE_MESSAGE })
  .regex(/^[A-Za-z0-9_-]{16,160}$/, { error: REFERENCE_MESSAGE });

/** The longest note a buyer may add to a return. */
export const RETURN_NOTE_MAX = 500;

/** `POST /api/v1/buyer/returns`. */
export const BuyerReturnRequestSchema = z
  .object({
    reference: ReferenceSchema,
    reason: z.enum(RETURN_REASONS, {
      error: `reason must be one of: ${RETURN_REASONS.join(', ')}.`,
    }),
    /** Free text for the operator who reviews the return; never personal data about the borrower. */
    note: requiredText('note must not be empty: leave it out instead.')
      .max(RETURN_NOTE_MAX, { error: `note must be at most ${RETURN_NOTE_MAX} characters.` })
      .optional(),
  })
  .strict()
  .meta({ id: 'BuyerReturnRequest' });
export type BuyerReturnRequest = z.infer<typeof BuyerReturnRequestSchema>;

/**
 * Where a return stands: `approved` (the sale's revenue is reversed), `pending` (queued for an operator, by the
 * buyer's rule), `rejected` (an operator refused it; the sale stands) or `reversed` (an approval a manager undid:
 * the sale stands and is charged again, and the sale cannot be returned again).
 */
export const RETURN_STATUSES = ['approved', 'pending', 'rejected', 'reversed'] as const;
export const ReturnStatusSchema = z.enum(RETURN_STATUSES);
export type ReturnStatus = z.infer<typeof ReturnStatusSchema>;

/** The answer to a return, and what the operator's queue lists. */
export const BuyerReturnSchema = z
  .object({
    returnId: z.string(),
    leadId: z.string(),
    reference: z.string(),
    reason: ReturnReasonSchema,
    status: ReturnStatusSchema,
    /** The sale's price: what an approved return takes off the revenue. */
    price: z.number().nonnegative(),
    filedAt: z.string(),
    decidedAt: z.string().optional(),
  })
  .meta({ id: 'BuyerReturn' });
export type BuyerReturn = z.infer<typeof BuyerReturnSchema>;

const AMOUNT_MESSAGE =
  'amount is required when funded is true: the loan amount funded, in dollars (up to 100000).';

/** `POST /api/v1/buyer/conversions`: whether the borrower's loan was funded, and for how much. */
export const BuyerConversionRequestSchema = z
  .object({
    reference: ReferenceSchema,
    funded: z.boolean({
      error: 'funded is required: true when the loan was funded, false when it will not be.',
    }),
    amount: z
      .number({ error: AMOUNT_MESSAGE })
      .positive({ error: AMOUNT_MESSAGE })
      .max(100_000, { error: AMOUNT_MESSAGE })
      .optional(),
  })
  .strict()
  .superRefine((body, ctx) => {
    if (body.funded && body.amount === undefined) {
      ctx.addIssue({ code: 'custom', path: ['amount'], message: AMOUNT_MESSAGE });
    }
    if (!body.funded && body.amount !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['amount'],
        message: 'amount must be left out when funded is false.',
      });
    }
  })
  .meta({ id: 'BuyerConversionRequest' });
export type BuyerConversionRequest = z.infer<typeof BuyerConversionRequestSchema>;

export const BuyerConversionSchema = z
  .object({
    conversionId: z.string(),
    leadId: z.string(),
    reference: z.string(),
    funded: z.boolean(),
    amount: z.number().positive().optional(),
    recordedAt: z.string(),
  })
  .meta({ id: 'BuyerConversion' });
export type BuyerConversion = z.infer<typeof BuyerConversionSchema>;

/** `POST /api/v1/admin/returns/{returnId}`: an operator's decision on a queued return. */
export const ReturnDecisionSchema = z
  .object({ decision: z.enum(['approve', 'reject'], { error: 'decision must be approve or reject.' }) })
  .strict();

/**
 * `POST /api/v1/admin/returns/{returnId}/reverse`: a manager undoes a decided return (approved → reversed,
 * rejected → approved), for a reason kept in the audit log and the lead's journey.
 */
export const ReturnReversalSchema = z
  .object({
    reason: z
      .string({ error: 'Say why the decision is reversed (10 to 500 characters).' })
      .trim()
      .min(10, { error: 'Say why the decision is reversed (10 to 500 characters).' })
      .max(500, { error: 'Say why the decision is reversed (10 to 500 characters).' }),
  })
  .strict();
export type ReturnReversal = z.infer<typeof ReturnReversalSchema>;

/** `GET /api/v1/admin/returns?status=`: returns by status, oldest first. */
export const ReturnQueueQuerySchema = z.object({
  status: z
    .enum(RETURN_STATUSES, { error: `status must be one of: ${RETURN_STATUSES.join(', ')}.` })
    .default('pending'),
});
export const ReturnQueueRowSchema = BuyerReturnSchema.extend({
  buyer: z.string(),
  note: z.string().optional(),
  /** When the sale was made, and when the buyer's return window closed or closes (its terms now). */
  soldAt: z.string(),
  windowClosesAt: z.string(),
  /** The buyer's cap in words (`at most 5 and 10 % per month`), counted when the return was filed. */
  cap: z.string(),
  /** Who decided: `rule` (the buyer's auto-approval) or `operator`. */
  decidedBy: z.string().optional(),
});
export type ReturnQueueRow = z.infer<typeof ReturnQueueRowSchema>;
export const ReturnQueueSchema = z
  .object({ returns: z.array(ReturnQueueRowSchema) })
  .meta({ id: 'ReturnQueue' });
