import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { PartnerApiKeysSchema, PartnerWebhookSecretsSchema, hashPartnerApiKey } from './partner-config.js';

const HASH = createHash('sha256').update('fpk_example').digest('hex');
const OTHER = createHash('sha256').update('fpk_other').digest('hex');

describe('PartnerApiKeysSchema', () => {
  it('parses partnerId:affiliateId:sha256hex:ratePerMinute entries', () => {
    const keys = PartnerApiKeysSchema.parse(` acme:aff-310:${HASH}:120 , acme:aff-310:${OTHER}:60`);
    expect(keys).toEqual([
      {
        partnerId: 'acme',
        affiliateId: 'aff-310',
        keySha256: hashPartnerApiKey('fpk_example'),
        ratePerMinute: 120,
      },
      {
        partnerId: 'acme',
        affiliateId: 'aff-310',
        keySha256: hashPartnerApiKey('fpk_other'),
        ratePerMinute: 60,
      },
    ]);
  });

  it('treats unset as no keys', () => {
    expect(PartnerApiKeysSchema.parse(undefined)).toEqual([]);
  });

  it('names a bad entry by position without echoing it', () => {
    for (const bad of [
      `acme:aff:${HASH.toUpperCase()}:60`,
      `acme:aff:${HASH}:0`,
      `acme:aff:${HASH}`,
      `ac me:aff:${HASH}:60`,
      `acme:aff:${HASH}:60,globex:aff:${HASH}:60`,
    ]) {
      const result = PartnerApiKeysSchema.safeParse(bad);
      expect(result.success, bad).toBe(false);
      expect(result.error?.issues[0]?.message).toMatch(/^entry \d/);
      expect(result.error?.issues[0]?.message).not.toContain(HASH);
    }
  });
});

describe('PartnerWebhookSecretsSchema', () => {
  it('groups secrets by partner, current first (rotation)', () => {
    const secrets = PartnerWebhookSecretsSchema.parse(
      `acme:${'a'.repeat(32)},globex:${'g'.repeat(40)},acme:${'b'.repeat(32)}`,
    );
    expect(secrets.get('acme')).toEqual(['a'.repeat(32), 'b'.repeat(32)]);
    expect(secrets.get('globex')).toEqual(['g'.repeat(40)]);
  });

  it('refuses short secrets and entries without a partner id', () => {
    expect(PartnerWebhookSecretsSchema.safeParse('acme:short').success).toBe(false);
    expect(PartnerWebhookSecretsSchema.safeParse('a'.repeat(40)).success).toBe(false);
  });

  it('takes Standard Webhooks secrets (base64, optionally whsec_) and refuses others', () => {
    const standard = `whsec_${Buffer.alloc(32, 7).toString('base64')}`;
    expect(PartnerWebhookSecretsSchema.parse(`acme:${standard}`).get('acme')).toEqual([standard]);
    expect(PartnerWebhookSecretsSchema.safeParse(`acme:${'-'.repeat(40)}`).success).toBe(false);
    expect(PartnerWebhookSecretsSchema.safeParse(`acme:whsec_${'a'.repeat(33)}`).success).toBe(false);
  });
});
