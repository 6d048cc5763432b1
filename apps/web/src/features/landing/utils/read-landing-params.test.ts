import { describe, expect, it } from 'vitest';
import { readLandingParams } from './read-landing-params';

describe('readLandingParams', () => {
  it('reads the attribution parameters by their URL names', () => {
    expect(
      readLandingParams(
        '?utm_source=google&utm_medium=cpc&utm_campaign=spring&utm_id=42&pubs=pub-9&offer_id=7&sub_source=s' +
          '&affiliate_id=a1&affiliate_sub_id=a2&campaign_type=ho&clickid=abc123&affiliate_clickid=x&ad_id=ad-5',
      ),
    ).toEqual({
      utm_source: 'google',
      utm_medium: 'cpc',
      utm_campaign: 'spring',
      utm_id: '42',
      pubs: 'pub-9',
      offer_id: '7',
      sub_source: 's',
      affiliate_id: 'a1',
      affiliate_sub_id: 'a2',
      campaign_type: 'ho',
      clickid: 'abc123',
      affiliate_clickid: 'x',
      ad_id: 'ad-5',
    });
  });

  it('never reads the deep link or any other parameter', () => {
    expect(
      readLandingParams('?email=jane%40example.com&loan_reason=MEDICAL&utm_source=news&gclid=g'),
    ).toEqual({
      utm_source: 'news',
    });
  });

  it('leaves out empty and over-long values, and is undefined without any', () => {
    expect(readLandingParams(`?utm_source=%20&pubs=${'p'.repeat(513)}`)).toBeUndefined();
    expect(readLandingParams('')).toBeUndefined();
  });
});
