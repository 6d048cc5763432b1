/**
 * Attribution captured when a visitor lands (spec §3 "Tracking"): which URL parameters and cookies feed which
 * tracking token, and where the click id comes from for each campaign type. The BFF calls
 * {@link resolveTracking} on the landing request (POST /api/v1/lead); `buildSubmissionPayload` then maps the
 * tokens to the lender network's names (`source`, `platform`, `aff_id`, `aff_sub1..5`, `clickid`, ...).
 */
import * as z from 'zod';
import { withoutUnsupportedCharacters } from './rules/text.js';
import { CampaignTypeSchema, TrackingSchema, type CampaignType, type Tracking } from './tracking.js';

/** Longest accepted URL parameter value; the tracking schema bounds tokens the same way. */
const PARAM_MAX = 512;
/** A URL parameter's value, without the characters no stored text may hold (`rules/text.ts`). */
const param = z.string().max(PARAM_MAX).overwrite(withoutUnsupportedCharacters).normalize('NFC').optional();

/**
 * The landing URL parameters the web app reads and sends with the landing request, by their names in the URL.
 * Only these are kept: anything else in the URL (the deep link's `email`, say) is dropped on parse, so personal
 * data never rides along with attribution. The spec names `utm_*`, `pubs`, `clickid` and `affiliate_clickid`;
 * the names of the offer, sub-id, ad-id and campaign-type parameters are ours.
 */
export const LandingParamsSchema = z.object({
  utm_source: param,
  utm_medium: param,
  utm_campaign: param,
  utm_id: param,
  /** The publisher (affiliate) id, sent to the network as `aff_id`. */
  pubs: param,
  offer_id: param,
  sub_source: param,
  affiliate_id: param,
  affiliate_sub_id: param,
  ad_id: param,
  clickid: param,
  affiliate_clickid: param,
  /** How the visitor arrived ('pm', 'ho', 'direct', 'ndirect', 'vl'); decides where the click id is read. */
  campaign_type: param,
});
export type LandingParams = z.infer<typeof LandingParamsSchema>;

/** Cookies read on the landing request, by their names in the browser. */
export const ATTRIBUTION_COOKIES = {
  /** Set by the 'pm' (paid media) click tracker on the site's domain. */
  pmClickId: 'pm_clickid',
  /** Set by the 'vl' campaign's tracker on the site's domain. */
  vlClickId: 'vl_clickid',
  /** Our first-party visitor id. */
  visitorId: 'visitor_id',
  /** Meta Pixel's browser id. */
  fbp: '_fbp',
  /** Google Ads' click cookie (holds the gclid). */
  gclAw: '_gcl_aw',
} as const;

/** URL parameter → tracking token, for the parameters copied as they are. */
const FROM_PARAMS = {
  utmSource: 'utm_source',
  utmMedium: 'utm_medium',
  utmCampaign: 'utm_campaign',
  utmId: 'utm_id',
  pubs: 'pubs',
  offerId: 'offer_id',
  subSource: 'sub_source',
  affiliateId: 'affiliate_id',
  affiliateSubId: 'affiliate_sub_id',
  adId: 'ad_id',
} as const satisfies { [K in keyof Tracking]?: keyof LandingParams };

/** Cookie → tracking token, for the cookies copied as they are. */
const FROM_COOKIES = {
  visitorId: ATTRIBUTION_COOKIES.visitorId,
  fbp: ATTRIBUTION_COOKIES.fbp,
  gclAw: ATTRIBUTION_COOKIES.gclAw,
} as const satisfies { [K in keyof Tracking]?: string };

type Values = Readonly<Record<string, string | undefined>>;

/** What the landing request carries. */
export interface AttributionSources {
  /** The landing URL parameters the page reported (unknown names are ignored). */
  query: Values;
  /** The cookies on the landing request. */
  cookies: Values;
  /** How the visitor arrived; usually the `campaign_type` URL parameter. Anything else counts as unknown. */
  campaignType?: string | undefined;
  /** The Referer header (or the page URL the web app reported): the page the visitor applied from. */
  referer?: string | undefined;
  /**
   * Tokens the page reported itself (the TrustedForm certificate URL, the Jornaya LeadiD, or values it mapped).
   * Values found in the URL parameters and cookies take precedence.
   */
  reported?: Tracking | undefined;
}

/**
 * The click id for a campaign type (spec §3):
 * - 'pm': the click cookie, falling back to the `clickid` then the `affiliate_clickid` URL parameter;
 * - 'ho', 'direct', 'ndirect': the URL parameters (the observed site kept them in session storage after
 *   landing; the landing request carries the URL, so that is where we read them);
 * - 'vl': its cookie only.
 * Without a known campaign type the URL parameters are read, as for a direct visit.
 */
export function clickIdFor(
  campaignType: CampaignType | undefined,
  query: Values,
  cookies: Values,
): string | undefined {
  const fromUrl = () => present(query.clickid) ?? present(query.affiliate_clickid);
  switch (campaignType) {
    case 'pm':
      return present(cookies[ATTRIBUTION_COOKIES.pmClickId]) ?? fromUrl();
    case 'vl':
      return present(cookies[ATTRIBUTION_COOKIES.vlClickId]);
    case 'ho':
    case 'direct':
    case 'ndirect':
    case undefined:
      return fromUrl();
  }
}

/**
 * The tracking tokens of a landing request, from its URL parameters, cookies and Referer. The page URL keeps
 * no query string or fragment (they can carry personal data). A value the tracking schema refuses (too long,
 * not a URL) is left out rather than failing the visitor's landing.
 */
export function resolveTracking(sources: AttributionSources): Tracking {
  const { query, cookies } = sources;
  const parsedType = CampaignTypeSchema.safeParse(sources.campaignType);
  const campaignType = parsedType.success ? parsedType.data : undefined;

  const candidate: Record<string, string | undefined> = {};
  for (const [token, name] of Object.entries(FROM_PARAMS)) candidate[token] = present(query[name]);
  for (const [token, name] of Object.entries(FROM_COOKIES)) candidate[token] = present(cookies[name]);
  candidate.campaignType = campaignType;
  candidate.clickId = clickIdFor(campaignType, query, cookies);
  candidate.webSiteUrl = present(sources.referer);

  const tracking: Record<string, unknown> = { ...sources.reported };
  for (const [token, value] of Object.entries(candidate)) {
    if (value === undefined || !(token in TrackingSchema.shape)) continue;
    const parsed = TrackingSchema.shape[token as keyof Tracking].safeParse(value);
    if (parsed.success && parsed.data !== undefined) tracking[token] = parsed.data;
  }
  return TrackingSchema.parse(tracking);
}

function present(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

/**
 * The affiliate a lead is credited to (postbacks, reports, duplicate counts): the partner key's affiliate or the
 * URL's `affiliate_id`, else `pubs`.
 */
export function affiliateOf(tracking: Partial<Tracking>): string | undefined {
  return tracking.affiliateId || tracking.pubs || undefined;
}
