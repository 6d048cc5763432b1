import { describe, expect, it } from 'vitest';
import * as z from 'zod';
import { parseEnv } from './parse-env.js';
import {
  boolish,
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
});
