import * as z from 'zod';

import {
  JORNAYA_DISCLOSURE_LABEL_ID,
  JORNAYA_TOKEN_FIELD,
  TRUSTEDFORM_CERT_FIELD,
} from './consent-fields.js';

export {
  JORNAYA_DISCLOSURE_LABEL_ID,
  JORNAYA_TOKEN_FIELD,
  TRUSTEDFORM_CERT_FIELD,
} from './consent-fields.js';

const ConsentScriptSchema = z.object({
  enabled: z.boolean(),
  /** The script to add to the landing and SSN pages, when enabled. */
  scriptUrl: z.url().optional(),
});

/** The social networks the footer has an icon for. */
export const SOCIAL_NETWORKS = ['facebook', 'x', 'instagram', 'linkedin', 'youtube'] as const;
export const SocialNetworkSchema = z.enum(SOCIAL_NETWORKS);
export type SocialNetwork = z.infer<typeof SocialNetworkSchema>;

export const SocialLinkSchema = z.object({
  network: SocialNetworkSchema,
  /** The profile's address (https, checked by the BFF's settings); opens in a new tab. */
  url: z.string(),
});
export type SocialLink = z.infer<typeof SocialLinkSchema>;

/**
 * How to reach the business (the BFF's `BRAND_*` settings). `sample` is true when they are not configured and
 * the BFF shows the built-in sample details (development and tests only: production refuses to start without
 * them), and the Contact Us page says so.
 */
export const BrandContactSchema = z.object({
  email: z.string(),
  /** Where privacy requests and questions about personal data go. */
  privacyEmail: z.string(),
  /** As people read it: '(800) 555-0142'. */
  phone: z.string(),
  /** For the tel: link, E.164. */
  phoneE164: z.string(),
  hours: z.string(),
  /** The postal address, one line per entry. */
  mailingAddress: z.array(z.string()),
  sample: z.boolean(),
});
export type BrandContact = z.infer<typeof BrandContactSchema>;

/**
 * The sample contact details the BFF shows while none are configured (development and tests): addresses under
 * `.example` (RFC 2606) and a number from the 555-01xx range reserved for fiction. The Contact Us page says
 * plainly that they are samples; production refuses to start without real ones.
 */
export const SAMPLE_CONTACT = {
  email: 'support@loanbridge.example',
  privacyEmail: 'privacy@loanbridge.example',
  phone: '(800) 555-0142',
  phoneE164: '+18005550142',
  hours: 'Monday to Friday, 9 a.m. to 6 p.m. Eastern Time',
  mailingAddress: ['LoanBridge Online Services LLC', '100 Example Plaza, Suite 400', 'Wilmington, DE 19801'],
} as const;

/** The business's contact details and links; a link not configured is left out, never a placeholder. */
export const BrandLinksSchema = z.object({
  contact: BrandContactSchema,
  /** The blog, linked from the header on wide screens (the BFF checks it is an http(s) address). */
  blogUrl: z.string().optional(),
  social: z.array(SocialLinkSchema),
});
export type BrandLinks = z.infer<typeof BrandLinksSchema>;

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
  duplicateWindowDays: z.number(),
  brand: BrandLinksSchema,
  /** Attribution lines the loaded reference data requires (O*NET, GeoNames), shown on the partners page. */
  dataAttributions: z.array(z.string()),
});
export type PublicConfig = z.infer<typeof PublicConfigSchema>;
