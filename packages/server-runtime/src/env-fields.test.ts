import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseEnv } from './parse-env.js';
import {
  boolish,
  buyerAddressAllowList,
  commaList,
  refuseInsecureWebhooksInProduction,
  serverEnvFields,
  splitCommaList,
} from './env-fields.js';

describe('shared env fields', () => {
  it('splits comma lists, trimming and dropping empty entries', () => {
    expect(splitCommaList(' a, b ,,c,')).toEqual(['a', 'b', 'c']);
    expect(commaList.parse('')).toEqual([]);
  });

  it('reads switches as true/1 and false/0 only', () => {
    expect(['true', '1', 'false', '0'].map((v) => boolish.parse(v))).toEqual([true, true, false, false]);
    expect(boolish.safeParse('yes').success).toBe(false);
  });

  it('defaults the shared keys, and refuses insecure webhooks in production only', () => {
    const Schema = z.object(serverEnvFields).superRefine(refuseInsecureWebhooksInProduction);
    const secret = { SUPPRESSION_HASH_SECRET: 's'.repeat(32) };
    expect(parseEnv(Schema, { ...secret, PARTNER_WEBHOOK_INSECURE: 'true' }).PARTNER_WEBHOOK_INSECURE).toBe(
      true,
    );
    expect(() =>
      parseEnv(Schema, { ...secret, NODE_ENV: 'production', PARTNER_WEBHOOK_INSECURE: '1' }),
    ).toThrow(/PARTNER_WEBHOOK_INSECURE: production webhooks/);
    expect(parseEnv(Schema, secret)).toMatchObject({
      NODE_ENV: 'development',
      LOG_LEVEL: 'info',
      PARTNER_WEBHOOK_INSECURE: false,
      CONSENT_RETENTION_DAYS: 1826,
    });
  });

  it('lets buyer calls reach loopback and private ranges outside production by default, none in production', () => {
    const Schema = z.object(serverEnvFields);
    const secret = { SUPPRESSION_HASH_SECRET: 's'.repeat(32) };
    const local = buyerAddressAllowList(parseEnv(Schema, { ...secret, BUYER_PRIVATE_RANGES: '' }));
    expect(['127.0.0.1', '::1', '10.2.3.4', '172.30.90.7', '192.168.1.2'].every((a) => local.allows(a))).toBe(
      true,
    );
    expect(local.allows('169.254.169.254')).toBe(false);
    const production = buyerAddressAllowList(parseEnv(Schema, { ...secret, NODE_ENV: 'production' }));
    expect(production.allows('127.0.0.1')).toBe(false);
    expect(production.allows('8.8.8.8')).toBe(true);
    const listed = parseEnv(Schema, {
      ...secret,
      NODE_ENV: 'production',
      BUYER_PRIVATE_RANGES: '172.30.90.0/24',
    });
    expect(buyerAddressAllowList(listed).allows('172.30.90.7')).toBe(true);
    expect(() => parseEnv(Schema, { ...secret, BUYER_PRIVATE_RANGES: 'lender-sandbox' })).toThrow(
      /BUYER_PRIVATE_RANGES/,
    );
  });
});
