import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ATTRIBUTION_COOKIES } from '@funnel/contracts/attribution';
import { TrackingSchema } from '@funnel/contracts/tracking';
import { leadIdOf, cookieOf } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

const LANDING_PARAMS = {
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
  clickid: 'url-click',
  campaign_type: 'pm',
};

const COOKIES = [
  `${ATTRIBUTION_COOKIES.pmClickId}=pm-cookie-click`,
  `${ATTRIBUTION_COOKIES.visitorId}=v-5d1e7b2c`,
  `${ATTRIBUTION_COOKIES.fbp}=fb.1.1718000000000.1234567890`,
  `${ATTRIBUTION_COOKIES.gclAw}=GCL.1718000000.Cj0KCQjw`,
].join('; ');

describe('attribution captured on the landing request', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  async function storedTracking(leadId: string) {
    const raw = await t.redis.hget(t.app.leadStore.key(leadId), '_tracking');
    return TrackingSchema.parse(JSON.parse(raw!));
  }

  it('stores URL parameters, cookies, the click id by campaign type and the page without its query', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead',
      payload: {
        amount: 500,
        loanReason: 'DEBT_CONSOLIDATION',
        zipCode: '10001',
        landingParams: { ...LANDING_PARAMS, email: 'someone@example.com' },
        tracking: { trustedFormUrl: 'https://cert.trustedform.com/abc' },
      },
      headers: {
        cookie: COOKIES,
        referer: 'https://apply.example.com/start?utm_source=google&email=someone%40example.com',
      },
    });
    expect(response.statusCode).toBe(201);
    const id = leadIdOf(cookieOf(response));
    expect(await storedTracking(id)).toEqual({
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
      campaignType: 'pm',
      clickId: 'pm-cookie-click',
      visitorId: 'v-5d1e7b2c',
      fbp: 'fb.1.1718000000000.1234567890',
      gclAw: 'GCL.1718000000.Cj0KCQjw',
      webSiteUrl: 'https://apply.example.com/start',
      trustedFormUrl: 'https://cert.trustedform.com/abc',
    });
    expect(JSON.stringify(await t.redis.hgetall(t.app.leadStore.key(id)))).not.toContain('someone');
  });

  it("reads the 'vl' click id from its cookie, for a deep-link lead too", async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead',
      payload: {
        email: 'deep@example.com',
        loanReason: 'OTHER',
        landingParams: { clickid: 'url-click', campaign_type: 'vl' },
      },
      headers: { cookie: `${ATTRIBUTION_COOKIES.vlClickId}=vl-cookie-click; ${COOKIES}` },
    });
    expect(response.statusCode).toBe(201);
    expect(await storedTracking(leadIdOf(cookieOf(response)))).toMatchObject({
      campaignType: 'vl',
      clickId: 'vl-cookie-click',
    });
  });

  it('stores nothing for a visitor who arrived with no attribution', async () => {
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead',
      payload: { amount: 500, loanReason: 'DEBT_CONSOLIDATION', zipCode: '10001' },
    });
    expect(await storedTracking(leadIdOf(cookieOf(response)))).toEqual({});
  });
});
