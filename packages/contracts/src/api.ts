import * as z from 'zod';
import { LandingParamsSchema } from './attribution.js';
import { SENSITIVE_CLIENT_FIELDS } from './fields.js';
import { LeadOutcomeSchema } from './lead-outcome.js';
import { LoanReasonSchema } from './options.js';
import { EmailSchema, LandingSchema, StepNameSchema } from './landing.js';
import { TrackingSchema } from './tracking.js';

/**
 * POST /api/v1/lead — the landing form, plus the consent tokens the page captured (`tracking`) and the landing
 * URL's attribution parameters (`landingParams`, by their URL names). The BFF adds the cookies and the Referer
 * (`resolveTracking`).
 */
export const CreateLeadRequestSchema = LandingSchema.extend({
  tracking: TrackingSchema.optional(),
  landingParams: LandingParamsSchema.optional(),
}).meta({ id: 'CreateLeadRequest' });
export type CreateLeadRequest = z.input<typeof CreateLeadRequestSchema>;

/**
 * POST /api/v1/lead from a deep link `?email=&loan_reason=`: pre-fills a new lead only; it never loads or
 * resumes anyone's data (docs/product-rules.md §returning-visitors-and-sessions). The ZIP is asked on the address step and the amount on the name step.
 */
export const DeepLinkLeadRequestSchema = z
  .object({
    email: EmailSchema,
    loanReason: LoanReasonSchema,
    tracking: TrackingSchema.optional(),
    landingParams: LandingParamsSchema.optional(),
  })
  .meta({ id: 'DeepLinkLeadRequest' });
export type DeepLinkLeadRequest = z.input<typeof DeepLinkLeadRequestSchema>;

/**
 * Which of the two POST /api/v1/lead bodies `body` is: a deep link carries an email and none of the landing
 * fields; everything else is the landing form. Validating against the chosen one alone gives per-field
 * messages (docs/product-rules.md §messages: never a union's generic 'Invalid input').
 */
export function createLeadBodySchema(
  body: unknown,
): typeof CreateLeadRequestSchema | typeof DeepLinkLeadRequestSchema {
  const fields = typeof body === 'object' && body !== null ? body : {};
  const isDeepLink = 'email' in fields && !('zipCode' in fields) && !('amount' in fields);
  return isDeepLink ? DeepLinkLeadRequestSchema : CreateLeadRequestSchema;
}

/** Masked values of sensitive answers: only the last four characters are shown. */
export const MaskedAnswersSchema = z.partialRecord(z.enum(SENSITIVE_CLIENT_FIELDS), z.string());

/** What the API tells a visitor about their own lead. Sensitive answers appear only in `masked`. */
export const LeadSummarySchema = z
  .object({
    answers: z.record(z.string(), z.unknown()),
    masked: MaskedAnswersSchema,
    nextStep: StepNameSchema,
    progress: z.number(),
    /** Present once the lead was submitted: where it stands with the lenders. */
    outcome: LeadOutcomeSchema.optional(),
  })
  .meta({ id: 'LeadSummary' });
export type LeadSummary = z.infer<typeof LeadSummarySchema>;

/** PUT /api/v1/lead/steps/:step response. */
export const StepSavedSchema = z
  .object({
    nextStep: StepNameSchema,
    progress: z.number(),
  })
  .meta({ id: 'StepSaved' });
export type StepSaved = z.infer<typeof StepSavedSchema>;

export const ZipPlaceSchema = z
  .object({
    city: z.string(),
    state: z.string(),
    lat: z.number(),
    lon: z.number(),
  })
  .meta({ id: 'ZipPlace' });
export type ZipPlace = z.infer<typeof ZipPlaceSchema>;

export const BankLookupSchema = z.object({ bankName: z.string() }).meta({ id: 'BankLookup' });
export type BankLookup = z.infer<typeof BankLookupSchema>;

export const SUGGEST_FIELDS = ['first_name', 'last_name', 'job_title', 'employer'] as const;
export const SuggestFieldSchema = z.enum(SUGGEST_FIELDS);
export type SuggestField = z.infer<typeof SuggestFieldSchema>;

/** Suggestion queries are 1 to 49 characters (spec §5). */
export const SuggestQuerySchema = z.object({ q: z.string().trim().min(1).max(49) });
export const AddressSuggestQuerySchema = z.object({
  q: z.string().trim().min(2).max(120),
  zip: z
    .string()
    .regex(/^\d{5}$/)
    .optional(),
});
export const SuggestionsSchema = z.object({ suggestions: z.array(z.string()) }).meta({ id: 'Suggestions' });
export type Suggestions = z.infer<typeof SuggestionsSchema>;

/** POST /api/v1/logs — a browser-side error report (spec §7 /logs). */
export const ClientLogSchema = z
  .object({
    pretext: z.string().max(200),
    text: z.string().max(2000),
    type: z.enum(['error', 'warning', 'info']).optional(),
    errorResponse: z.string().max(2000).optional(),
  })
  .meta({ id: 'ClientLog' });
export type ClientLog = z.infer<typeof ClientLogSchema>;
