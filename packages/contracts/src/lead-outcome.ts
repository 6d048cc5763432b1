import * as z from 'zod';
import { ScreeningVerdictSchema } from './screening.js';

/**
 * Where a submitted lead stands. `pending` until a lender decides; then one final outcome (docs/product-rules.md §outcome-screens).
 */
export const OUTCOMES = ['pending', 'sold', 'rejected', 'no_lender'] as const;
export const OutcomeSchema = z.enum(OUTCOMES).meta({ id: 'Outcome' });
export type Outcome = z.infer<typeof OutcomeSchema>;

export const FINAL_OUTCOMES: readonly Outcome[] = ['sold', 'rejected', 'no_lender'];

export function isFinalOutcome(outcome: Outcome): boolean {
  return FINAL_OUTCOMES.includes(outcome);
}

/**
 * The outcome reason of a lead whose borrower another lead submitted within the duplicate window: it is not
 * posted upstream, and no affiliate is paid for it.
 */
export const DUPLICATE_REASON = 'duplicate';

/** The lead's outcome as stored, published and pushed to the browser (SSE event `outcome`). */
export const LeadOutcomeSchema = z
  .object({
    outcome: OutcomeSchema,
    /** Where the borrower is sent after 2 s: the lender's offer, the reject address, or a fallback offer. */
    redirectUrl: z.string().url().optional(),
    /** A sale whose redirect is a partner offer rather than a lender ('Suitable program found'). */
    partnerOffer: z.boolean().optional(),
    /** Why a lead ended without a sale, for operators: 'deadline', 'unreachable', 'upstream_rejected', … */
    reason: z.string().max(64).optional(),
    /** Increases with every change of this lead's outcome; the SSE event id. */
    seq: z.number().int().positive(),
    at: z.string(),
  })
  .meta({ id: 'LeadOutcome' });
export type LeadOutcome = z.infer<typeof LeadOutcomeSchema>;

/** The SSE event name carrying a `LeadOutcome`. */
export const OUTCOME_EVENT = 'outcome';

/** The screen (route) that shows an outcome (docs/product-rules.md §outcome-screens). */
export function outcomeRoute(outcome: Pick<LeadOutcome, 'outcome' | 'partnerOffer'>): string {
  switch (outcome.outcome) {
    case 'sold':
      return outcome.partnerOffer ? '/redirect-upstart' : '/redirect';
    case 'rejected':
      return '/reject-page';
    case 'no_lender':
      return '/redirect-upgrade';
    case 'pending':
      return '/mapping-lender';
  }
}

/** What the BFF records when a lead is submitted; the worker reads it to know where the lead stands. */
export const SubmissionStateSchema = z.object({
  submittedAt: z.string(),
  /** Decision deadline (submit time + 310 s by default), persisted so it survives worker restarts. */
  deadlineAt: z.string(),
  /** The lender network's lead id, once a post has answered. */
  upstreamLeadId: z.string().optional(),
  /** The key the network wants back on ping (from the submit answer when given, else our lead id). */
  checkKey: z.string().optional(),
  /** Screening's verdict, once the worker has screened the lead (ADR 0029): it is screened once, before any buyer. */
  screening: ScreeningVerdictSchema.optional(),
});
export type SubmissionState = z.infer<typeof SubmissionStateSchema>;

/** The BFF's answer to a submission: the lead is waiting for a lender (or already decided). */
export const SubmitAcceptedSchema = z.object({ outcome: OutcomeSchema }).meta({ id: 'SubmitAccepted' });
export type SubmitAccepted = z.infer<typeof SubmitAcceptedSchema>;
