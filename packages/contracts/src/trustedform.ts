/**
 * TrustedForm's Certificate API v4 as the worker uses it: retaining the certificate of a sold lead (the `retain`
 * operation, which v4 requires together with `match_lead`). Requests go to the certificate URL itself, so the
 * URL must be checked to be on TrustedForm's certificate host before our credentials are sent to it.
 */
import * as z from 'zod';

/** Where certificates live; anything else is not a TrustedForm certificate (and gets no credentials). */
export const TRUSTEDFORM_CERT_ORIGIN = 'https://cert.trustedform.com';

/** The `api-version` header value selecting the v4 schema. */
export const TRUSTEDFORM_API_VERSION = '4.0';

/** POST {certificate URL} body: retain, matched against the lead's email and phone. */
export const TrustedFormRetainRequestSchema = z.object({
  retain: z.object({
    /** Our lead id, shown on the retained certificate. */
    reference: z.string(),
  }),
  match_lead: z.object({
    email: z.string().optional(),
    phone: z.string().optional(),
  }),
});
export type TrustedFormRetainRequest = z.infer<typeof TrustedFormRetainRequestSchema>;

/** The parts of the answer we read: the overall outcome and whether the lead matched the certificate. */
export const TrustedFormRetainResponseSchema = z.looseObject({
  outcome: z.string(),
  match_lead: z.looseObject({ result: z.looseObject({ success: z.boolean() }).optional() }).optional(),
});
export type TrustedFormRetainResponse = z.infer<typeof TrustedFormRetainResponseSchema>;

/**
 * Whether `url` is a certificate on `origin` (scheme, host and port equal; default TrustedForm's). Anything
 * that fails to parse, or points elsewhere, is not.
 */
export function isTrustedFormCertificate(url: string, origin: string = TRUSTEDFORM_CERT_ORIGIN): boolean {
  try {
    const parsed = new URL(url);
    return parsed.origin === new URL(origin).origin && parsed.pathname.length > 1 && !parsed.username;
  } catch {
    return false;
  }
}
