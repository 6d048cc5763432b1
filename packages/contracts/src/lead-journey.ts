/**
 * Any lead's journey (issue 33): the operator's lead search and one lead's timeline, read from the system of
 * record. Ids, times, names of steps and buyers, prices and outcomes only: never an answer a person typed.
 */
import * as z from 'zod';
import { LeadEventSchema, TraceIdSchema } from './lead-events.js';
import { OUTCOMES } from './lead-outcome.js';
import { PrivacyPhoneSchema } from './privacy.js';
import { LEAD_SOURCES, LeadSourceSchema, isoDay, textFilter } from './reports.js';
import { SCREENING_VERDICTS } from './screening.js';
import { EmailSchema } from './steps.js';

/** The most leads one search answers, newest first. */
export const LEAD_SEARCH_LIMIT = 50;

/**
 * `POST /api/v1/admin/leads/search`: a body, not a query string, so that an email or phone searched for never
 * reaches a URL or an access log.
 */
export const LeadSearchQuerySchema = z
  .object({
    leadId: textFilter('leadId', 64),
    /** The partner that posted the lead (its partner id), and the `Idempotency-Key` it posted it with. */
    partner: textFilter('partner', 64),
    idempotencyKey: textFilter('idempotencyKey', 255),
    clickId: textFilter('clickId', 512),
    /** Matched through the keyed-hash contact index, never by reading answers. */
    email: EmailSchema.optional(),
    phone: PrivacyPhoneSchema.optional(),
    from: isoDay('from').optional(),
    to: isoDay('to').optional(),
    affiliate: textFilter('affiliate', 512),
    source: z.enum(LEAD_SOURCES, { error: `source must be one of: ${LEAD_SOURCES.join(', ')}.` }).optional(),
    /** `pending`: submitted or not, no final outcome yet. */
    outcome: z.enum(OUTCOMES, { error: `outcome must be one of: ${OUTCOMES.join(', ')}.` }).optional(),
    /** Leads offered to this buyer (any attempt, whatever its result). */
    buyer: textFilter('buyer', 40),
    /** Screening's verdict (ADR 0030): the blocked or flagged leads. */
    screening: z
      .enum(SCREENING_VERDICTS, { error: `screening must be one of: ${SCREENING_VERDICTS.join(', ')}.` })
      .optional(),
  })
  .refine((q) => !q.from || !q.to || q.from <= q.to, {
    error: "'from' must not be after 'to'.",
    path: ['to'],
  })
  .refine((q) => !q.idempotencyKey || q.partner, {
    error: 'An idempotency key belongs to one partner: give the partner too.',
    path: ['partner'],
  });
export type LeadSearchQuery = z.infer<typeof LeadSearchQuerySchema>;

export const LeadSearchRowSchema = z.object({
  leadId: z.string(),
  createdAt: z.string().nullable(),
  source: LeadSourceSchema.nullable(),
  partner: z.string().nullable(),
  affiliate: z.string().nullable(),
  clickId: z.string().nullable(),
  amount: z.number().nullable(),
  state: z.string().nullable(),
  submittedAt: z.string().nullable(),
  outcome: z.enum(OUTCOMES),
  outcomeReason: z.string().nullable(),
  /** Screening's verdict and score; null for a lead not screened (yet). */
  screeningVerdict: z.enum(SCREENING_VERDICTS).nullable(),
  screeningScore: z.number().int().nullable(),
});
export type LeadSearchRow = z.infer<typeof LeadSearchRowSchema>;

export const LeadSearchResultSchema = z
  .object({
    leads: z.array(LeadSearchRowSchema),
    /** True when more leads matched than {@link LEAD_SEARCH_LIMIT}: narrow the search to see them. */
    more: z.boolean(),
  })
  .meta({ id: 'LeadSearchResult' });
export type LeadSearchResult = z.infer<typeof LeadSearchResultSchema>;

/** The consent evidence as the archive keeps it in clear: who consented and from where stay sealed. */
const JourneyConsentSchema = z.object({
  version: z.string(),
  textSha256: z.string(),
  button: z.string(),
  pageUrl: z.string(),
  partnerListVersion: z.string().optional(),
  trustedForm: z.boolean(),
  retainedUntil: z.string(),
});

/** A deletion, unsubscribe or do-not-sell request that named the lead. */
const JourneyPrivacyRequestSchema = z.object({
  requestId: z.string(),
  type: z.string(),
  source: z.string(),
  erasedAt: z.string().nullable(),
});

/** One line of the timeline, oldest first. */
export const JourneyEntrySchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('event'), at: z.string(), event: LeadEventSchema }),
  z.object({ kind: z.literal('consent'), at: z.string(), consent: JourneyConsentSchema }),
  z.object({ kind: z.literal('privacy_request'), at: z.string(), request: JourneyPrivacyRequestSchema }),
]);
export type JourneyEntry = z.infer<typeof JourneyEntrySchema>;

/** Who bought the lead and for how much; `returned` while a return of the sale is in effect (approved). */
export const LeadSaleSchema = z.object({
  buyer: z.string(),
  price: z.number().nonnegative(),
  returned: z.boolean(),
});
export type LeadSale = z.infer<typeof LeadSaleSchema>;

export const LeadJourneySchema = z
  .object({
    leadId: z.string(),
    summary: LeadSearchRowSchema,
    /** The sale, when a buyer bought the lead; null otherwise. */
    sale: LeadSaleSchema.nullable(),
    /**
     * The OpenTelemetry trace of the lead's submission (docs/tracing.md): look it up in the trace viewer to follow
     * the lead through the BFF, the queue, the worker and each buyer call. Null when tracing was off.
     */
    traceId: TraceIdSchema.nullable(),
    timeline: z.array(JourneyEntrySchema),
    /**
     * The lead's personal data was erased on a deletion request (its `erased` event is in the timeline): what is
     * shown is what the system of record still holds (ids, times, steps, attempts, outcome); the consent
     * evidence is gone.
     */
    erased: z.boolean(),
  })
  .meta({ id: 'LeadJourney' });
export type LeadJourney = z.infer<typeof LeadJourneySchema>;
