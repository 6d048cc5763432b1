import * as z from 'zod';

/** The hidden input the TrustedForm script fills with the certificate URL (sent as `tracking.trustedFormUrl`). */
export const TRUSTEDFORM_CERT_FIELD = 'xxTrustedFormCertUrl';
/** The hidden input the Jornaya script fills with the LeadiD token (sent as `tracking.jornayaLeadId`). */
export const JORNAYA_TOKEN_FIELD = 'universal_leadid';
/** The id of the label holding the consent text, which the Jornaya script records as the TCPA disclosure. */
export const JORNAYA_DISCLOSURE_LABEL_ID = 'leadid_tcpa_disclosure';

const ConsentScriptSchema = z.object({
  enabled: z.boolean(),
  /** The script to add to the landing and SSN pages, when enabled. */
  scriptUrl: z.url().optional(),
});

/**
 * GET /api/v1/config: what the browser needs to know about this deployment, and nothing secret. The web app
 * injects the consent-certification scripts only when they are enabled here, so a deployment without them loads
 * no third-party script (and the Content-Security-Policy allows none).
 */
export const PublicConfigSchema = z.object({
  /** The consent text version the pages must show and send back on submit. */
  consentVersion: z.string(),
  /** The version of the partner list the consent refers to (recorded with the consent). */
  partnerListVersion: z.string(),
  trustedForm: ConsentScriptSchema.extend({
    /** The hidden input the script fills: {@link TRUSTEDFORM_CERT_FIELD}. */
    certificateField: z.literal(TRUSTEDFORM_CERT_FIELD),
  }),
  jornaya: ConsentScriptSchema.extend({
    /** The hidden input the script fills: {@link JORNAYA_TOKEN_FIELD}. */
    tokenField: z.literal(JORNAYA_TOKEN_FIELD),
    /** The label around the consent text: {@link JORNAYA_DISCLOSURE_LABEL_ID}. */
    disclosureLabelId: z.literal(JORNAYA_DISCLOSURE_LABEL_ID),
  }),
  /**
   * The IANA time zone whose calendar day the BFF checks ages and pay dates against (`BUSINESS_TIME_ZONE`): the
   * browser offers dates on the same day, wherever the visitor is.
   */
  businessTimeZone: z.string(),
  /**
   * How many days after a borrower's request another one from the same borrower is a duplicate, not sent to
   * lenders (`DUPLICATE_WINDOW_DAYS`): the duplicate's screen says when they may apply again.
   */
  duplicateWindowDays: z.number().nonnegative(),
  /** Attribution lines the loaded reference data requires (O*NET, GeoNames), shown on the partners page. */
  dataAttributions: z.array(z.string()),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;
