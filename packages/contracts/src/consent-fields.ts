// The consent-certification scripts' hidden fields: names shared by the landing form, the BFF's configuration and
// the lead's tracking. A module without zod, so the first screen can import them without the schema library.
/** The hidden input the TrustedForm script fills with the certificate URL (sent as `tracking.trustedFormUrl`). */
export const TRUSTEDFORM_CERT_FIELD = 'xxTrustedFormCertUrl';
/** The hidden input the Jornaya script fills with the LeadiD token (sent as `tracking.jornayaLeadId`). */
export const JORNAYA_TOKEN_FIELD = 'universal_leadid';
/** The id of the label holding the consent text, which the Jornaya script records as the TCPA disclosure. */
export const JORNAYA_DISCLOSURE_LABEL_ID = 'leadid_tcpa_disclosure';
