import * as z from 'zod';

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
export const SubmitLeadRequestSchema = z.object({
  button: SubmitButtonSchema,
  /** The version of the consent text the page showed; must be the current one. */
  consentVersion: z.literal(CONSENT_VERSION),
  /** The page the button was pressed on (path only; the BFF drops any query string). */
  pagePath: z
    .string()
    .max(200)
    .regex(/^\/[\w\-/]*$/),
});
export type SubmitLeadRequest = z.infer<typeof SubmitLeadRequestSchema>;

/** The consent evidence stored with a submitted lead (no SSN or bank data in it). */
export const ConsentRecordSchema = z.object({
  version: z.string(),
  textSha256: z.string().regex(/^[a-f0-9]{64}$/),
  button: SubmitButtonSchema,
  at: z.string(),
  ip: z.string(),
  userAgent: z.string(),
  pageUrl: z.string(),
  trustedFormUrl: z.string().optional(),
  jornayaLeadId: z.string().optional(),
});
export type ConsentRecord = z.infer<typeof ConsentRecordSchema>;
