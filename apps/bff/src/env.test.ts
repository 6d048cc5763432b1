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
});
