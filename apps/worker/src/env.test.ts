import { describe, expect, it } from 'vitest';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadEnv } from './env.js';

const REQUIRED = {
  FIELD_ENCRYPTION_KEYS: `k1:${Buffer.alloc(32, 1).toString('base64')}`,
  SUPPRESSION_HASH_SECRET: 's'.repeat(32),
};

describe('worker configuration', () => {
  it('needs the suppression-list secret to check opt-outs', () => {
    expect(() => loadEnv({ FIELD_ENCRYPTION_KEYS: REQUIRED.FIELD_ENCRYPTION_KEYS })).toThrow(
      /SUPPRESSION_HASH_SECRET/,
    );
  });

  it('leaves every third party off by default, and purges after 24 hours', () => {
    const env = loadEnv(REQUIRED);
    expect(env).toMatchObject({
      BREVO_API_URL: 'https://api.brevo.com/v3',
      BREVO_LIST_IDS: [],
      TRUSTEDFORM_CERT_ORIGIN: 'https://cert.trustedform.com',
      SENSITIVE_PURGE_GRACE_HOURS: 24,
    });
    expect(env.BREVO_API_KEY).toBeUndefined();
    expect(env.CROSS_SELL_FORWARD_URL).toBeUndefined();
    expect(env.TRUSTEDFORM_API_KEY).toBeUndefined();
  });

  it('reads the Brevo list ids, and requires them with a key', () => {
    expect(loadEnv({ ...REQUIRED, BREVO_API_KEY: 'k', BREVO_LIST_IDS: '7, 12' }).BREVO_LIST_IDS).toEqual([
      7, 12,
    ]);
    expect(() => loadEnv({ ...REQUIRED, BREVO_API_KEY: 'k' })).toThrow(/BREVO_LIST_IDS: required/);
    expect(() => loadEnv({ ...REQUIRED, BREVO_LIST_IDS: '7,x' })).toThrow(/BREVO_LIST_IDS/);
  });

  it('reads affiliate postbacks: https only outside local runs, known macros only, sold by default', () => {
    const postbacks = (url: string) => JSON.stringify({ 'aff-1': { url } });
    expect(
      loadEnv({ ...REQUIRED, AFFILIATE_POSTBACKS: postbacks('https://t.example/pb?c={click_id}') })
        .AFFILIATE_POSTBACKS,
    ).toEqual({ 'aff-1': { url: 'https://t.example/pb?c={click_id}', events: ['sold'], payout: {} } });
    expect(() =>
      loadEnv({ ...REQUIRED, AFFILIATE_POSTBACKS: postbacks('http://t.example/pb?c={click_id}') }),
    ).toThrow(/must be an https URL/);
    expect(
      loadEnv({
        ...REQUIRED,
        PARTNER_WEBHOOK_INSECURE: 'true',
        AFFILIATE_POSTBACKS: postbacks('http://127.0.0.1:9/pb'),
      }).AFFILIATE_POSTBACKS['aff-1']?.url,
    ).toBe('http://127.0.0.1:9/pb');
    expect(() =>
      loadEnv({ ...REQUIRED, AFFILIATE_POSTBACKS: postbacks('https://t.example/pb?c={clickid}') }),
    ).toThrow(/unknown macro \{clickid\}/);
    expect(() => loadEnv({ ...REQUIRED, AFFILIATE_POSTBACKS: '{nope' })).toThrow(/AFFILIATE_POSTBACKS/);
  });

  it('sends the TrustedForm key over https only in production', () => {
    const local = { ...REQUIRED, TRUSTEDFORM_CERT_ORIGIN: 'http://127.0.0.1:4567' };
    expect(loadEnv(local).TRUSTEDFORM_CERT_ORIGIN).toBe('http://127.0.0.1:4567');
    expect(() => loadEnv({ ...local, NODE_ENV: 'production' })).toThrow(/TRUSTEDFORM_CERT_ORIGIN/);
  });
});

describe('buyers file', () => {
  it('has no buyers without a file: the lender network alone, as before', () => {
    expect(loadEnv(REQUIRED).BUYERS).toBeUndefined();
  });

  it('reads the example buyers file', () => {
    const file = new URL('../../../config/buyers.example.json', import.meta.url).pathname;
    const buyers = loadEnv({ ...REQUIRED, BUYERS_FILE: file }).BUYERS;
    expect(buyers?.buyers.map((b) => b.id)).toEqual(['prime-market', 'lead-network', 'subprime-market']);
  });

  it('stops start-up listing every problem of a bad file', () => {
    const dir = mkdtempSync(join(tmpdir(), 'buyers-'));
    const file = join(dir, 'buyers.json');
    writeFileSync(
      file,
      JSON.stringify({
        timeZone: 'Nowhere/Else',
        buyers: [
          { id: 'a', protocol: 'sync-post', baseUrl: 'http://x.test', tier: 1, priceLadder: [5, 10] },
          { id: 'b', protocol: 'fax', baseUrl: 'not a url', tier: 0 },
        ],
      }),
    );
    let message = '';
    try {
      loadEnv({ ...REQUIRED, BUYERS_FILE: file });
    } catch (error) {
      message = (error as Error).message;
    }
    for (const path of [
      'BUYERS_FILE.timeZone',
      'BUYERS_FILE.buyers.0.priceLadder',
      'BUYERS_FILE.buyers.1.protocol',
      'BUYERS_FILE.buyers.1.baseUrl',
      'BUYERS_FILE.buyers.1.tier',
    ]) {
      expect(message).toContain(`  ${path}: `);
    }
    expect(() => loadEnv({ ...REQUIRED, BUYERS_FILE: join(dir, 'missing.json') })).toThrow(
      /BUYERS_FILE: cannot be read/,
    );
  });
});
