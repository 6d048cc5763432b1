import { describe, expect, it } from 'vitest';
import { ATTRIBUTION_COOKIES, LandingParamsSchema, resolveTracking } from './attribution.js';
import { buildSubmissionPayload } from './lender-network.js';
import { SAMPLE_LEAD, SAMPLE_SUBMISSION_CONTEXT } from './sample-lead.js';
import { CAMPAIGN_TYPES } from './tracking.js';

const PM_COOKIE = { [ATTRIBUTION_COOKIES.pmClickId]: 'pm-cookie-click' };
const VL_COOKIE = { [ATTRIBUTION_COOKIES.vlClickId]: 'vl-cookie-click' };
const BOTH_COOKIES = { ...PM_COOKIE, ...VL_COOKIE };
const CLICKID = { clickid: 'url-clickid' };
const AFFILIATE_CLICKID = { affiliate_clickid: 'url-affiliate-clickid' };
const BOTH_PARAMS = { ...CLICKID, ...AFFILIATE_CLICKID };

/** Every campaign type with every place a click id can be: spec §3 "Click id by campaign type". */
const CLICK_ID_CASES: Array<{
  campaignType: string | undefined;
  query: Record<string, string>;
  cookies: Record<string, string>;
  clickId: string | undefined;
  why: string;
}> = [
  {
    campaignType: 'pm',
    query: BOTH_PARAMS,
    cookies: BOTH_COOKIES,
    clickId: 'pm-cookie-click',
    why: 'cookie first',
  },
  { campaignType: 'pm', query: BOTH_PARAMS, cookies: VL_COOKIE, clickId: 'url-clickid', why: 'then clickid' },
  {
    campaignType: 'pm',
    query: AFFILIATE_CLICKID,
    cookies: {},
    clickId: 'url-affiliate-clickid',
    why: 'then affiliate_clickid',
  },
  { campaignType: 'pm', query: {}, cookies: VL_COOKIE, clickId: undefined, why: "never the 'vl' cookie" },
  {
    campaignType: 'ho',
    query: BOTH_PARAMS,
    cookies: BOTH_COOKIES,
    clickId: 'url-clickid',
    why: 'URL, not cookies',
  },
  {
    campaignType: 'ho',
    query: AFFILIATE_CLICKID,
    cookies: {},
    clickId: 'url-affiliate-clickid',
    why: 'affiliate_clickid',
  },
  { campaignType: 'ho', query: {}, cookies: BOTH_COOKIES, clickId: undefined, why: 'no URL parameter' },
  { campaignType: 'direct', query: BOTH_PARAMS, cookies: BOTH_COOKIES, clickId: 'url-clickid', why: 'URL' },
  { campaignType: 'direct', query: {}, cookies: BOTH_COOKIES, clickId: undefined, why: 'no URL parameter' },
  { campaignType: 'ndirect', query: BOTH_PARAMS, cookies: BOTH_COOKIES, clickId: 'url-clickid', why: 'URL' },
  { campaignType: 'ndirect', query: {}, cookies: BOTH_COOKIES, clickId: undefined, why: 'no URL parameter' },
  {
    campaignType: 'vl',
    query: BOTH_PARAMS,
    cookies: BOTH_COOKIES,
    clickId: 'vl-cookie-click',
    why: 'its cookie',
  },
  { campaignType: 'vl', query: BOTH_PARAMS, cookies: PM_COOKIE, clickId: undefined, why: 'never the URL' },
  {
    campaignType: undefined,
    query: BOTH_PARAMS,
    cookies: BOTH_COOKIES,
    clickId: 'url-clickid',
    why: 'as direct',
  },
  {
    campaignType: 'email',
    query: BOTH_PARAMS,
    cookies: BOTH_COOKIES,
    clickId: 'url-clickid',
    why: 'unknown type',
  },
];

describe('resolveTracking: click id by campaign type', () => {
  it('covers every campaign type', () => {
    const covered = new Set(CLICK_ID_CASES.map((c) => c.campaignType));
    for (const type of CAMPAIGN_TYPES) expect(covered).toContain(type);
  });

  it.each(CLICK_ID_CASES)('$campaignType: $why → $clickId', ({ campaignType, query, cookies, clickId }) => {
    const tracking = resolveTracking({ query, cookies, campaignType });
    expect(tracking.clickId).toBe(clickId);
    const known = (CAMPAIGN_TYPES as readonly string[]).includes(campaignType ?? '');
    expect(tracking.campaignType).toBe(known ? campaignType : undefined);
  });

  it.each(CAMPAIGN_TYPES)('%s: the click id reaches the submission payload as clickid', (campaignType) => {
    const tracking = resolveTracking({ query: BOTH_PARAMS, cookies: BOTH_COOKIES, campaignType });
    const payload = buildSubmissionPayload(SAMPLE_LEAD, { ...SAMPLE_SUBMISSION_CONTEXT, tracking });
    const expected =
      { pm: 'pm-cookie-click', vl: 'vl-cookie-click' }[campaignType as string] ?? 'url-clickid';
    expect(payload.clickid).toBe(expected);
  });
});

describe('resolveTracking: every other token', () => {
  const query = {
    utm_source: 'google',
    utm_medium: 'cpc',
    utm_campaign: 'personal-loans-tx',
    utm_id: 'cmp-20250601',
    pubs: 'pub-1042',
    offer_id: 'offer-77',
    sub_source: 'search',
    affiliate_id: 'aff-310',
    affiliate_sub_id: 'sub-12',
    ad_id: 'ad-5531',
    clickid: 'clk-8f2a9c',
    campaign_type: 'direct',
  };
  const cookies = {
    visitor_id: 'v-5d1e7b2c',
    _fbp: 'fb.1.1718000000000.1234567890',
    _gcl_aw: 'GCL.1718000000.Cj0KCQjw',
    unrelated: 'ignored',
  };

  it('maps URL parameters, cookies and the Referer to tracking tokens', () => {
    expect(
      resolveTracking({
        query,
        cookies,
        campaignType: query.campaign_type,
        referer: 'https://www.example.com/start?utm_source=google&email=a%40b.com#form',
      }),
    ).toEqual({
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'personal-loans-tx',
      utmId: 'cmp-20250601',
      pubs: 'pub-1042',
      offerId: 'offer-77',
      subSource: 'search',
      affiliateId: 'aff-310',
      affiliateSubId: 'sub-12',
      adId: 'ad-5531',
      campaignType: 'direct',
      clickId: 'clk-8f2a9c',
      visitorId: 'v-5d1e7b2c',
      fbp: 'fb.1.1718000000000.1234567890',
      gclAw: 'GCL.1718000000.Cj0KCQjw',
      webSiteUrl: 'https://www.example.com/start',
    });
  });

  it('lands in the submission payload exactly as spec §3 lists', () => {
    const tracking = resolveTracking({ query, cookies, campaignType: 'direct' });
    const payload = buildSubmissionPayload(SAMPLE_LEAD, { ...SAMPLE_SUBMISSION_CONTEXT, tracking });
    expect(payload).toMatchObject({
      source: 'cpc',
      utm_source: 'google',
      platform: 'personal-loans-tx',
      sub_source: 'search',
      aff_id: 'pub-1042',
      source_id: 'offer-77',
      'tPar[affiliateId]': 'aff-310',
      'tPar[affiliateSubId]': 'sub-12',
      aff_sub1: 'cmp-20250601',
      aff_sub2: 'v-5d1e7b2c',
      aff_sub3: 'fb.1.1718000000000.1234567890',
      aff_sub4: 'GCL.1718000000.Cj0KCQjw',
      aff_sub5: 'ad-5531',
      clickid: 'clk-8f2a9c',
    });
  });

  it('keeps the consent tokens the page reported, and prefers what the URL and cookies say', () => {
    const tracking = resolveTracking({
      query: { utm_source: 'bing' },
      cookies: {},
      reported: {
        utmSource: 'stale',
        trustedFormUrl: 'https://cert.trustedform.com/abc',
        jornayaLeadId: 'A1B2C3D4-E5F6-7A8B-9C0D-E1F2A3B4C5D6',
      },
    });
    expect(tracking).toEqual({
      utmSource: 'bing',
      trustedFormUrl: 'https://cert.trustedform.com/abc',
      jornayaLeadId: 'A1B2C3D4-E5F6-7A8B-9C0D-E1F2A3B4C5D6',
    });
  });

  it('leaves out blank and oversized values and a Referer that is not a web page', () => {
    expect(
      resolveTracking({
        query: { utm_source: '   ', utm_medium: 'x'.repeat(600) },
        cookies: { _fbp: '' },
        referer: 'android-app://com.example',
      }),
    ).toEqual({});
  });

  it('drops URL parameters it does not know, such as the deep link email', () => {
    expect(LandingParamsSchema.parse({ utm_source: 'google', email: 'a@b.com' })).toEqual({
      utm_source: 'google',
    });
  });
});
