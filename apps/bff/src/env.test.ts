import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.js';

const SECRETS = {
  FIELD_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
  COOKIE_SECRETS: 'c'.repeat(32),
  SUPPRESSION_HASH_SECRET: 's'.repeat(32),
};

const BRAND = {
  BRAND_CONTACT_EMAIL: 'help@acme-loans.com',
  BRAND_CONTACT_PHONE: '302-555-0199',
  BRAND_CONTACT_HOURS: 'Every day, 8 a.m. to 8 p.m. Eastern Time',
  BRAND_MAILING_ADDRESS: 'Acme Loans LLC | 1 Main St | Dover, DE 19901',
};

describe('loadEnv', () => {
  it('applies the documented defaults', () => {
    const env = loadEnv(SECRETS);
    expect(env).toMatchObject({
      PORT: 3000,
      REDIS_URL: 'redis://127.0.0.1:6379',
      LEAD_TTL_DAYS: 30,
      COOKIE_SECURE: true,
    });
    expect(env.FIELD_ENCRYPTION_KEYS[0]?.id).toBe('k1');
  });

  it('treats empty variables as unset', () => {
    expect(loadEnv({ ...SECRETS, ROUTING_LOOKUP_URL: '', PORT: '' }).ROUTING_LOOKUP_URL).toBeUndefined();
  });

  it('refuses to start without secrets, naming every bad key', () => {
    expect(() => loadEnv({ PORT: 'x' })).toThrow(/PORT[\s\S]*FIELD_ENCRYPTION_KEYS[\s\S]*COOKIE_SECRETS/);
    expect(() => loadEnv({ ...SECRETS, FIELD_ENCRYPTION_KEYS: 'k1:c2hvcnQ=' })).toThrow(/32 bytes/);
  });

  it('allows http partner webhooks outside production only', () => {
    expect(loadEnv({ ...SECRETS, PARTNER_WEBHOOK_INSECURE: 'true' }).PARTNER_WEBHOOK_INSECURE).toBe(true);
    expect(() =>
      loadEnv({ ...SECRETS, ...BRAND, NODE_ENV: 'production', PARTNER_WEBHOOK_INSECURE: 'true' }),
    ).toThrow(/PARTNER_WEBHOOK_INSECURE/);
  });

  it('reads buyer API keys and refuses a bad entry by position, never echoing it (issue 27)', () => {
    const hash = 'a'.repeat(64);
    expect(loadEnv({ ...SECRETS, BUYER_API_KEYS: `prime:${hash}:30` }).BUYER_API_KEYS).toEqual([
      { buyerId: 'prime', keySha256: Buffer.from(hash, 'hex'), ratePerMinute: 30 },
    ]);
    expect(() => loadEnv({ ...SECRETS, BUYER_API_KEYS: `prime:${hash}:30, Prime_X:${hash}:30` })).toThrow(
      /BUYER_API_KEYS[\s\S]*entry 2 is not buyerId:sha256hex:ratePerMinute \(buyer id/,
    );
    expect(() => loadEnv({ ...SECRETS, BUYER_API_KEYS: `prime:${hash}:30,other:${hash}:5` })).toThrow(
      /entry 2 .*listed twice/,
    );
  });

  it('refuses a buyers file it cannot read, naming BUYERS_FILE', () => {
    expect(() => loadEnv({ ...SECRETS, BUYERS_FILE: '/nonexistent/buyers.json' })).toThrow(
      /BUYERS_FILE[^\n]*cannot be read/,
    );
  });

  it('refuses to start in production without the brand contact settings, naming each (issue 25)', () => {
    expect(() => loadEnv({ ...SECRETS, NODE_ENV: 'production' })).toThrow(
      /BRAND_CONTACT_EMAIL[\s\S]*BRAND_CONTACT_PHONE[\s\S]*BRAND_CONTACT_HOURS[\s\S]*BRAND_MAILING_ADDRESS/,
    );
    const env = loadEnv({ ...SECRETS, ...BRAND, NODE_ENV: 'production' });
    expect(env.BRAND_CONTACT_PHONE).toEqual({ phone: '(302) 555-0199', phoneE164: '+13025550199' });
    expect(env.BRAND_MAILING_ADDRESS).toEqual(['Acme Loans LLC', '1 Main St', 'Dover, DE 19901']);
    // Outside production they may be unset: the site shows samples and says so.
    expect(loadEnv(SECRETS).BRAND_CONTACT_EMAIL).toBeUndefined();
  });

  it('refuses a social link that is not network=https://…', () => {
    expect(
      loadEnv({ ...SECRETS, BRAND_SOCIAL_LINKS: 'facebook=https://facebook.com/acme, x=https://x.com/acme' })
        .BRAND_SOCIAL_LINKS,
    ).toEqual([
      { network: 'facebook', url: 'https://facebook.com/acme' },
      { network: 'x', url: 'https://x.com/acme' },
    ]);
    expect(() => loadEnv({ ...SECRETS, BRAND_SOCIAL_LINKS: 'myspace=https://myspace.com/acme' })).toThrow(
      /BRAND_SOCIAL_LINKS/,
    );
    expect(() => loadEnv({ ...SECRETS, BRAND_CONTACT_PHONE: '555-0199' })).toThrow(/BRAND_CONTACT_PHONE/);
  });

  it('trusts X-Forwarded-For from nobody by default, from any peer, or from exactly the named proxy', () => {
    expect(loadEnv(SECRETS).TRUST_PROXY).toBe(false);
    expect(loadEnv({ ...SECRETS, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadEnv({ ...SECRETS, TRUST_PROXY: '172.30.90.10' }).TRUST_PROXY).toBe('172.30.90.10');
    expect(loadEnv({ ...SECRETS, TRUST_PROXY: '10.0.0.0/8, ::1' }).TRUST_PROXY).toBe('10.0.0.0/8,::1');
    expect(() => loadEnv({ ...SECRETS, TRUST_PROXY: 'proxy' })).toThrow(/TRUST_PROXY/);
  });
});
