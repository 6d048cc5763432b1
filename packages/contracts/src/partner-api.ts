/**
 * The partner (integrator) API: partners post complete leads server to server and learn their outcome by polling
 * or by a signed webhook. The lead is validated by the very step schemas the funnel uses (client field names,
 * the spec's messages); only the consent evidence, attribution and webhook address are partner-specific.
 * Safe for any runtime; the webhook signature (Node crypto) lives in `@funnel/server-runtime/webhook-signature`.
 */
import * as z from 'zod';
import { SubmitButtonSchema } from './consent.js';
import { toClientFields } from './fields.js';
import { OutcomeSchema } from './lead-outcome.js';
import { addDays } from './rules/calendar-date.js';
import { formatSsn } from './rules/ssn.js';
import { SAMPLE_SUBMISSION_CONTEXT, sampleLeadOn } from './sample-lead.js';
import {
  LandingSchema,
  STEP_NAMES,
  STEP_SCHEMAS,
  validateStepAgainstLead,
  type ClientAnswers,
  type StepSchemas,
} from './steps.js';
import { TrackingSchema } from './tracking.js';

/** Longest accepted URL (the practical limit browsers and CDNs agree on). */
const URL_MAX = 2048;
/** Longest accepted user agent; real ones stay well under 512 characters. */
const USER_AGENT_MAX = 1024;

export const CONSENT_REQUIRED = 'Consent evidence is required: { at, ip, userAgent, pageUrl }';
export const CONSENT_TIME_INVALID = 'Consent time must be an ISO 8601 date-time with a time zone';
export const CONSENT_IP_INVALID = 'Consent IP must be an IPv4 or IPv6 address';
export const CONSENT_USER_AGENT_REQUIRED = "Consent user agent is required (the borrower's browser)";
export const CONSENT_PAGE_URL_INVALID = 'Consent page URL must be an http(s) URL';
export const CONSENT_IN_FUTURE = 'Consent time is in the future';
export const WEBHOOK_URL_INVALID = 'Webhook URL must be an https URL';
export const WEBHOOK_URL_INVALID_HTTP = 'Webhook URL must be an http(s) URL';
export const WEBHOOK_NOT_ENABLED = 'Webhooks are not enabled for this API key: ask us for a webhook secret';

type StepShapes = { [N in keyof StepSchemas]: StepSchemas[N]['shape'] }[keyof StepSchemas];
type UnionToIntersection<U> = (U extends unknown ? (x: U) => void : never) extends (x: infer I) => void
  ? I
  : never;

/** Every step's fields with its own schema: the rules are defined once, in steps.ts. */
const STEP_FIELDS = Object.assign(
  {},
  ...STEP_NAMES.map((name) => STEP_SCHEMAS[name].shape),
) as UnionToIntersection<StepShapes>;

/**
 * The lead itself: every step's fields, plus the landing form's amount, loan reason and ZIP code (the landing
 * amount is required, where the name step's is optional).
 */
const PartnerLeadAnswersSchema = z
  .object(STEP_FIELDS)
  .extend(LandingSchema.pick({ amount: true, loanReason: true, zipCode: true }).shape);

/**
 * The consent the partner captured on their own page and asserts: the borrower pressed the button under our
 * consent text (the partner agreement requires that text, current version, verbatim), at this time, from this
 * browser. Stored as the lead's consent record, as the funnel's own submit button stores it.
 */
export const PartnerConsentSchema = z
  .object(
    {
      /** Which label the button carried; 'REQUEST_FUNDS' when not given. */
      button: SubmitButtonSchema.optional(),
      /** When the borrower pressed it, ISO 8601 with a time zone. */
      at: z.iso.datetime({ offset: true, error: CONSENT_TIME_INVALID }),
      /** The borrower's IP address (not the partner server's). */
      ip: z.union([z.ipv4(), z.ipv6()], { error: CONSENT_IP_INVALID }),
      /** The borrower's browser user agent. */
      userAgent: z
        .string({ error: CONSENT_USER_AGENT_REQUIRED })
        .trim()
        .min(1, { error: CONSENT_USER_AGENT_REQUIRED })
        .max(USER_AGENT_MAX),
      /** The page the borrower consented on; query and fragment are dropped (they can carry personal data). */
      pageUrl: z
        .url({ protocol: /^https?$/, error: CONSENT_PAGE_URL_INVALID })
        .pipe(TrackingSchema.shape.webSiteUrl.unwrap()),
      /** TrustedForm certificate URL of this consent, when the partner's page runs TrustedForm. */
      trustedFormUrl: TrackingSchema.shape.trustedFormUrl,
      /** Jornaya (Verisk) LeadiD token of this consent, when the partner's page runs Jornaya. */
      jornayaLeadId: TrackingSchema.shape.jornayaLeadId,
    },
    { error: CONSENT_REQUIRED },
  )
  .meta({ id: 'PartnerConsent' });
export type PartnerConsent = z.output<typeof PartnerConsentSchema>;

export interface PartnerLeadRequestOptions {
  /** Accept `http:` webhook addresses (local runs and tests only); production accepts `https:` alone. */
  allowHttpWebhook: boolean;
}

/**
 * POST /api/v1/partner/leads for a deployment's webhook policy. A complete lead in client field names, the
 * consent evidence, optional attribution (the API key's affiliate id always wins over `tracking.affiliateId`)
 * and an optional address for the outcome webhook.
 */
export function createPartnerLeadRequestSchema(options: PartnerLeadRequestOptions) {
  const webhookUrl = options.allowHttpWebhook
    ? z.url({ protocol: /^https?$/, error: WEBHOOK_URL_INVALID_HTTP }).max(URL_MAX)
    : z.url({ protocol: /^https$/, error: WEBHOOK_URL_INVALID }).max(URL_MAX);
  return PartnerLeadAnswersSchema.extend({
    consent: PartnerConsentSchema,
    tracking: TrackingSchema.optional(),
    webhookUrl: webhookUrl.optional(),
  });
}

/** The production contract: webhook addresses are https. */
export const PartnerLeadRequestSchema = createPartnerLeadRequestSchema({ allowHttpWebhook: false }).meta({
  id: 'PartnerLeadRequest',
});

/** The contract of local runs and tests (PARTNER_WEBHOOK_INSECURE): http webhook addresses too. */
export const LocalPartnerLeadRequestSchema = createPartnerLeadRequestSchema({ allowHttpWebhook: true }).meta({
  id: 'PartnerLeadRequestAllowingHttpWebhooks',
});
export type PartnerLeadRequest = z.input<typeof PartnerLeadRequestSchema>;
export type PartnerLeadRequestPayload = z.output<typeof PartnerLeadRequestSchema>;

/**
 * The checks a lead's fields cannot make alone, as the funnel makes them step by step: age on `todayIso`, the
 * pay date within its window, and a work phone other than the personal one (reported on `employerPhone`
 * once, not on both phones).
 *
 * @param lead the validated answers (client names).
 * @param todayIso today in the business time zone, 'YYYY-MM-DD'.
 * @returns a message per failing client field; empty when the lead may be stored.
 */
export function partnerLeadProblems(lead: ClientAnswers, todayIso: string): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const step of STEP_NAMES) {
    if (step === 'cellphone') continue;
    Object.assign(problems, validateStepAgainstLead(step, lead, lead, todayIso));
  }
  return problems;
}

/** The 202 answer: our lead id, which every later call and webhook names. */
export const PartnerLeadAcceptedSchema = z
  .object({
    leadId: z.string(),
    outcome: OutcomeSchema,
  })
  .meta({ id: 'PartnerLeadAccepted' });
export type PartnerLeadAccepted = z.infer<typeof PartnerLeadAcceptedSchema>;

/** GET /api/v1/partner/leads/:id. `redirectUrl` is where to send the borrower; `decidedAt` is set once final. */
export const PartnerLeadStatusSchema = z
  .object({
    leadId: z.string(),
    outcome: OutcomeSchema,
    redirectUrl: z.string().optional(),
    decidedAt: z.string().optional(),
  })
  .meta({ id: 'PartnerLeadStatus' });
export type PartnerLeadStatus = z.infer<typeof PartnerLeadStatusSchema>;

/**
 * The webhook body, POSTed once a lead reaches a final outcome. No personal data: the partner already holds
 * the lead and matches it by `leadId`.
 */
export const PartnerWebhookPayloadSchema = z
  .object({
    leadId: z.string(),
    outcome: OutcomeSchema.exclude(['pending']),
    redirectUrl: z.string().optional(),
    decidedAt: z.string(),
  })
  .meta({ id: 'PartnerWebhookPayload' });
export type PartnerWebhookPayload = z.infer<typeof PartnerWebhookPayloadSchema>;

/** What the lead store keeps about a lead that came through the partner API (meta field `_partner`). */
export const PartnerLeadMetaSchema = z.object({
  partnerId: z.string(),
  webhookUrl: z.string().optional(),
});
export type PartnerLeadMeta = z.infer<typeof PartnerLeadMetaSchema>;

/** The header carrying an optional client-chosen key that makes a retried POST return the first lead. */
export const IDEMPOTENCY_KEY_HEADER = 'idempotency-key';
/** Idempotency keys are remembered this long per partner. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 60 * 60 * 1000;
/** A printable ASCII string of 1 to 255 characters, such as a UUID or the partner's own lead id. */
export const IdempotencyKeySchema = z
  .string()
  .regex(/^[\x21-\x7e]{1,255}$/, { error: 'Idempotency-Key must be 1 to 255 printable ASCII characters' });

/**
 * The example request of the API documentation on `todayIso` ('YYYY-MM-DD', business time zone): the contracts'
 * sample lead in client names as a partner sends it (SSN typed with dashes; city, state and the second pay date
 * are ours to derive, so they are left out), with a pay date selectable today and consent given the day before.
 * Built for the day it is read, so that a reader who sends it gets a 202 on any day.
 */
export function partnerLeadRequestExample(todayIso: string): PartnerLeadRequest {
  const {
    city: _city,
    state: _state,
    incomeNextDate2: _secondPayDate,
    ...answers
  } = toClientFields(sampleLeadOn(todayIso));
  const { trustedFormUrl, jornayaLeadId, utmSource, utmMedium, utmCampaign, clickId, subSource } =
    SAMPLE_SUBMISSION_CONTEXT.tracking;
  return {
    ...answers,
    socialSecurityNumber: formatSsn(answers.socialSecurityNumber),
    consent: {
      button: 'REQUEST_FUNDS',
      at: `${addDays(todayIso, -1)}T14:03:11Z`,
      ip: SAMPLE_SUBMISSION_CONTEXT.userIp,
      userAgent: SAMPLE_SUBMISSION_CONTEXT.userAgent,
      pageUrl: 'https://loans.partner.example/apply',
      ...(trustedFormUrl ? { trustedFormUrl } : {}),
      ...(jornayaLeadId ? { jornayaLeadId } : {}),
    },
    tracking: { utmSource, utmMedium, utmCampaign, clickId, subSource },
    webhookUrl: 'https://hooks.partner.example/funnel/outcomes',
  };
}
