import { describe, expect, it } from 'vitest';
import { TrackingSchema } from './tracking.js';

describe('TrackingSchema', () => {
  it('accepts a visitor who arrived with no tokens', () => {
    expect(TrackingSchema.parse({})).toEqual({});
  });

  it('accepts every token', () => {
    const tracking = {
      utmSource: 'google',
      utmMedium: 'cpc',
      utmCampaign: 'personal-loans-tx',
      utmId: 'cmp-20250601',
      pubs: 'pub-1042',
      offerId: 'offer-77',
      subSource: 'search',
      affiliateId: 'aff-310',
      affiliateSubId: 'sub-12',
      campaignType: 'pm',
      clickId: 'clk-8f2a9c',
      visitorId: 'v-5d1e7b2c',
      fbp: 'fb.1.1718000000000.1234567890',
      gclAw: 'GCL.1718000000.Cj0KCQjw',
      adId: 'ad-5531',
      webSiteUrl: 'https://www.example.com/',
      trustedFormUrl: 'https://cert.trustedform.com/2f3e4d5c6b7a8f9e0d1c2b3a4f5e6d7c8b9a0f1e',
      jornayaLeadId: 'A1B2C3D4-E5F6-7A8B-9C0D-E1F2A3B4C5D6',
    };
    expect(TrackingSchema.parse(tracking)).toEqual(tracking);
  });

  it('trims tokens', () => {
    expect(TrackingSchema.parse({ utmSource: '  google ' })).toEqual({ utmSource: 'google' });
  });

  it('drops the query and fragment of the page URL, which can carry personal data', () => {
    expect(
      TrackingSchema.parse({
        webSiteUrl: 'https://www.example.com/start?email=a%40b.com&loan_reason=OTHER#top',
      }),
    ).toEqual({ webSiteUrl: 'https://www.example.com/start' });
  });

  it('keeps the query of the TrustedForm certificate URL', () => {
    const trustedFormUrl = 'https://cert.trustedform.com/abc?shared_token=xyz';
    expect(TrackingSchema.parse({ trustedFormUrl })).toEqual({ trustedFormUrl });
  });

  it('rejects tokens over 512 characters and URLs over 2048', () => {
    expect(TrackingSchema.safeParse({ clickId: 'x'.repeat(512) }).success).toBe(true);
    expect(TrackingSchema.safeParse({ clickId: 'x'.repeat(513) }).success).toBe(false);
    const longUrl = `https://example.com/${'a'.repeat(2048)}`;
    expect(TrackingSchema.safeParse({ trustedFormUrl: longUrl }).success).toBe(false);
  });

  it('rejects URLs that are not http(s)', () => {
    expect(TrackingSchema.safeParse({ trustedFormUrl: 'javascript:alert(1)' }).success).toBe(false);
    expect(TrackingSchema.safeParse({ webSiteUrl: 'ftp://example.com/' }).success).toBe(false);
  });

  it('rejects an unknown campaign type', () => {
    expect(TrackingSchema.safeParse({ campaignType: 'email' }).success).toBe(false);
  });
});
