import { describe, expect, it } from 'vitest';
import { loadEnv } from './env.js';

const SECRETS = {
  FIELD_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 7).toString('base64')}`,
  COOKIE_SECRETS: 'c'.repeat(32),
  SUPPRESSION_HASH_SECRET: 's'.repeat(32),
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
    expect(() => loadEnv({ ...SECRETS, NODE_ENV: 'production', PARTNER_WEBHOOK_INSECURE: 'true' })).toThrow(
      /PARTNER_WEBHOOK_INSECURE/,
    );
  });

  it('trusts X-Forwarded-For from nobody by default, from any peer, or from exactly the named proxy', () => {
    expect(loadEnv(SECRETS).TRUST_PROXY).toBe(false);
    expect(loadEnv({ ...SECRETS, TRUST_PROXY: 'true' }).TRUST_PROXY).toBe(true);
    expect(loadEnv({ ...SECRETS, TRUST_PROXY: '172.30.90.10' }).TRUST_PROXY).toBe('172.30.90.10');
    expect(loadEnv({ ...SECRETS, TRUST_PROXY: '10.0.0.0/8, ::1' }).TRUST_PROXY).toBe('10.0.0.0/8,::1');
    expect(() => loadEnv({ ...SECRETS, TRUST_PROXY: 'proxy' })).toThrow(/TRUST_PROXY/);
  });
});
