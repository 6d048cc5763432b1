import { describe, expect, it } from 'vitest';
import { SAMPLE_SUBMISSION_CONTEXT } from './sample-lead.js';
import { TrackingSchema } from './tracking.js';

describe('TrackingSchema', () => {
  it('accepts a visitor who arrived with no tokens', () => {
    expect(TrackingSchema.parse({})).toEqual({});
  });

  it('accepts every token', () => {
    const tracking = SAMPLE_SUBMISSION_CONTEXT.tracking;
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
