import * as z from 'zod';
import { withoutUnsupportedCharacters } from './rules/text.js';

/** Longest accepted attribution token; real ones are far shorter, the bound only stops abuse. */
const TOKEN_MAX = 512;
/** Longest accepted URL (the practical limit browsers and CDNs agree on). */
const URL_MAX = 2048;

// A token comes from a URL or a cookie, not from what a person typed: unsupported characters are dropped rather
// than refusing the visitor's lead over them.
const token = z
  .string()
  .overwrite(withoutUnsupportedCharacters)
  .trim()
  .normalize('NFC')
  .max(TOKEN_MAX)
  .optional();
const httpUrl = z.url({ protocol: /^https?$/ }).max(URL_MAX);

/** How the visitor arrived, which decides where the click id is read from (spec §3; see `attribution.ts`). */
export const CAMPAIGN_TYPES = ['pm', 'ho', 'direct', 'ndirect', 'vl'] as const;
export const CampaignTypeSchema = z.enum(CAMPAIGN_TYPES);
export type CampaignType = z.infer<typeof CampaignTypeSchema>;

/**
 * Attribution and consent tokens captured when the visitor lands (`resolveTracking` in `attribution.ts`), sent
 * with the lead to the lender network (see `buildSubmissionPayload` for where each one goes). All optional: a
 * visitor may arrive with none.
 */
export const TrackingSchema = z
  .object({
    /** `utm_source` URL parameter. */
    utmSource: token,
    /** `utm_medium` URL parameter. */
    utmMedium: token,
    /** `utm_campaign` URL parameter. */
    utmCampaign: token,
    /** `utm_id` URL parameter. */
    utmId: token,
    /** `pubs` URL parameter: the publisher (affiliate) id. */
    pubs: token,
    /** The offer id the visitor clicked. */
    offerId: token,
    subSource: token,
    affiliateId: token,
    affiliateSubId: token,
    campaignType: CampaignTypeSchema.optional(),
    /** Click id, resolved according to `campaignType` from a cookie or the URL (`clickIdFor` in `attribution.ts`). */
    clickId: token,
    /** Our first-party visitor-id cookie. */
    visitorId: token,
    /** Meta Pixel browser-id cookie `_fbp`. */
    fbp: token,
    /** Google Ads click cookie `_gcl_aw` (holds the gclid). */
    gclAw: token,
    /** Ad (creative) id from the URL. */
    adId: token,
    /**
     * The page the visitor applied from, for consent evidence. Query and fragment are dropped on parse: they can
     * carry personal data (the `?email=` deep link), which must not leave our systems.
     */
    webSiteUrl: httpUrl.transform(withoutQuery).optional(),
    /** TrustedForm certificate URL of the consent. */
    trustedFormUrl: httpUrl.optional(),
    /** Jornaya (Verisk) LeadiD token of the consent. */
    jornayaLeadId: token,
  })
  .meta({ id: 'Tracking' });
export type Tracking = z.infer<typeof TrackingSchema>;

function withoutQuery(value: string): string {
  const url = new URL(value);
  url.search = '';
  url.hash = '';
  return url.href;
}
