import * as z from 'zod';
import { TrackingSchema } from './tracking.js';

/**
 * The consent the borrower gives by pressing the submit button (spec §1 "Consent wording"), written in our own
 * words. The exact text shown is versioned: the BFF stores the version and the SHA-256 of the text with each
 * submitted lead, so what a person agreed to can be proven later. Changing a word means a new version.
 */
export const CONSENT_VERSION = '2026-11-21.1';

export const SUBMIT_BUTTONS = {
  REQUEST_FUNDS: 'Request Funds',
  REQUEST_CASH: 'Request Cash',
} as const;
export const SubmitButtonSchema = z.enum(['REQUEST_FUNDS', 'REQUEST_CASH']);
export type SubmitButton = z.infer<typeof SubmitButtonSchema>;

/** The consent paragraph for a given button label, exactly as shown above that button. */
export function consentText(button: SubmitButton): string {
  const label = SUBMIT_BUTTONS[button];
  return [
    `By clicking "${label}", you agree to our Terms of Use, Privacy Policy, Disclaimer and Credit Authorization`,
    'Agreement, and you sign this request electronically.',
    'You agree that the lenders and marketing partners in our network may contact you about your request and',
    'related offers by email, by text message and by calls made with an automatic dialing system or prerecorded',
    'voice, at the email address and phone numbers you gave, even if a number is on a do-not-call list.',
    'Consent is not a condition of any loan; reply STOP to any text to opt out. Message and data rates may apply.',
    'You authorize lenders to obtain your credit report: a soft inquiry does not affect your credit score, and a',
    'lender may make a hard inquiry before funding. We are not a lender and do not make credit decisions.',
  ].join(' ');
}

/** What the browser sends when the borrower presses the submit button. */
export const SubmitLeadRequestSchema = z
  .object({
    button: SubmitButtonSchema,
    /** The version of the consent text the page showed; must be the current one. */
    consentVersion: z.literal(CONSENT_VERSION),
    /** The page the button was pressed on (path only; the BFF drops any query string). */
    pagePath: z
      .string()
      .max(200)
      .regex(/^\/[\w\-/]*$/),
    /**
     * The consent certificates in the submit page's hidden inputs, when the TrustedForm / Jornaya scripts run
     * there; they replace the ones captured at landing.
     */
    trustedFormUrl: TrackingSchema.shape.trustedFormUrl,
    jornayaLeadId: TrackingSchema.shape.jornayaLeadId,
  })
  .meta({ id: 'SubmitLeadRequest' });
export type SubmitLeadRequest = z.infer<typeof SubmitLeadRequestSchema>;

/** The consent evidence stored with a submitted lead (no SSN or bank data in it). */
export const ConsentRecordSchema = z.object({
  /** {@link CONSENT_VERSION} of the text shown. */
  version: z.string(),
  /** SHA-256 (hex) of the exact text shown, {@link consentText} of the button. */
  textSha256: z.string().regex(/^[a-f0-9]{64}$/),
  button: SubmitButtonSchema,
  /** When the button was pressed, UTC (ISO 8601). */
  at: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  /** The page the button was pressed on, without query string. */
  pageUrl: z.string(),
  trustedFormUrl: z.string().optional(),
  jornayaLeadId: z.string().optional(),
  /**
   * The version of the partner list (the Partners page) the consent names. Absent on a lead that did not come
   * through our pages (posted server-to-server by a partner, whose own page showed the consent).
   */
  partnerListVersion: z.string().optional(),
});
export type ConsentRecord = z.infer<typeof ConsentRecordSchema>;

/**
 * The consent evidence kept apart from the lead (`{prefix}consent:{leadId}`) for the retention period (default
 * 5 years), long after the lead and its sensitive answers are gone, and what operators read through
 * GET /api/v1/admin/consent/:leadId. Self-contained: it holds the exact text shown (texts change between
 * versions; the hash proves this one is what was shown) and who consented to be contacted at which email
 * address and phone number. Never an SSN, bank or licence detail.
 */
export const RetainedConsentSchema = ConsentRecordSchema.extend({
  leadId: z.string(),
  /** The consent paragraph exactly as shown; its SHA-256 is `textSha256`. */
  text: z.string(),
  /** The person who consented and the contact points the consent covers, as the lead held them. */
  contact: z.object({
    firstName: z.string().optional(),
    lastName: z.string().optional(),
    email: z.string().optional(),
    phone: z.string().optional(),
  }),
});
export type RetainedConsent = z.infer<typeof RetainedConsentSchema>;
