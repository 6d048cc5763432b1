import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { deleteKeys, keysUnder, testKeyPrefix } from '@funnel/testing/redis-keys';
import { FieldCipher } from './field-cipher.js';
import { SuppressionList, normalizeEmail, normalizePhone, openPrivacyRequest } from './suppression-list.js';

const SECRET = 'a-test-secret-of-at-least-32-characters';
const REQUEST = { email: ' Maria@Example.COM ', phone: '(212)-555-0142', reason: 'SPAM' };
const sealer = new FieldCipher([{ id: 'k1', key: randomBytes(32) }]);

describe('normalizing a contact', () => {
  it('trims and lower-cases an email and keeps the 10 digits of a phone', () => {
    expect(normalizeEmail(' Maria@Example.COM ')).toBe('maria@example.com');
    expect(normalizeEmail('   ')).toBeUndefined();
    expect(normalizePhone('(212)-555-0142')).toBe('2125550142');
    expect(normalizePhone('+1 212 555 0142')).toBe('2125550142');
    expect(normalizePhone('555-0142')).toBeUndefined();
  });
});

describe('SuppressionList on real Redis', () => {
  const prefix = testKeyPrefix('suppression');
  let redis: Redis;
  let list: SuppressionList;
  let clock = new Date('2026-11-21T10:00:00.000Z');

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
    list = new SuppressionList(redis, { keyPrefix: prefix, hashSecret: SECRET, sealer, now: () => clock });
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
  });

  it('appends a request to the stream and suppresses its normalized contact', async () => {
    const recorded = await list.record({
      type: 'unsubscribe',
      source: 'form',
      contact: { email: REQUEST.email, phone: REQUEST.phone },
      request: REQUEST,
    });
    expect(recorded.duplicate).toBe(false);

    const entries = await redis.xrange(list.streamKey, '-', '+');
    expect(entries).toHaveLength(1);
    const [, fields] = entries[0]!;
    const entry = Object.fromEntries(chunk(fields));
    expect(entry).toEqual({
      requestId: recorded.requestId,
      type: 'unsubscribe',
      source: 'form',
      at: '2026-11-21T10:00:00.000Z',
      request: expect.stringMatching(/^enc:v1:k1:/),
    });
    // Sealed before it enters Redis (and so the AOF); the key ring opens it, bound to its request id.
    // The contact in any spelling, not its three-digit fragments: a random request id or ciphertext holds "555" now
    // and then, and made this test fail by chance.
    expect(fields.join(' ')).not.toMatch(/maria|example|212\D*555\D*0142/i);
    expect(openPrivacyRequest(sealer, entry)).toEqual(REQUEST);
    expect(() => openPrivacyRequest(sealer, { ...entry, requestId: 'another-request' })).toThrow();
    // An entry written before requests were sealed is read as it is.
    expect(openPrivacyRequest(sealer, { requestId: 'r0', request: JSON.stringify(REQUEST) })).toEqual(
      REQUEST,
    );

    expect(await list.isSuppressed({ email: 'maria@example.com' })).toEqual({
      unsubscribed: true,
      doNotSell: false,
    });
    expect(await list.isSuppressed({ phone: '2125550142' })).toEqual({
      unsubscribed: true,
      doNotSell: false,
    });
    expect(await list.isSuppressed({ email: 'someone@example.com', phone: '6465550199' })).toEqual({
      unsubscribed: false,
      doNotSell: false,
    });
    expect(await list.isSuppressed({})).toEqual({ unsubscribed: false, doNotSell: false });
  });

  it('indexes keyed hashes only: no email or phone in any key or index field', async () => {
    const index = await redis.hgetall(list.indexKey);
    const everything = JSON.stringify([await keysUnder(redis, prefix), index]);
    expect(everything).not.toMatch(/maria|example|2125550142|555/i);
    const other = new SuppressionList(redis, { keyPrefix: prefix, hashSecret: `${SECRET}-other`, sealer });
    expect(await other.isSuppressed({ email: 'maria@example.com' })).toEqual({
      unsubscribed: false,
      doNotSell: false,
    });
  });

  it('stores a repeat within the window once and answers the same request id', async () => {
    const first = await list.record({
      type: 'do-not-sell',
      source: 'form',
      contact: { email: 'ann@example.com', phone: '6465550199' },
      request: { firstName: 'Ann' },
      leadId: 'lead-1',
    });
    const before = await redis.xlen(list.streamKey);
    clock = new Date(clock.getTime() + 60_000);
    const repeat = await list.record({
      type: 'do-not-sell',
      source: 'form',
      contact: { email: ' ANN@example.com', phone: '(646)-555-0199' },
      request: { firstName: 'Ann' },
    });
    expect(repeat).toEqual({ requestId: first.requestId, duplicate: true });
    expect(await redis.xlen(list.streamKey)).toBe(before);

    const otherType = await list.record({
      type: 'unsubscribe',
      source: 'form',
      contact: { email: 'ann@example.com', phone: '6465550199' },
      request: {},
    });
    expect(otherType.duplicate).toBe(false);
    expect(await list.isSuppressed({ email: 'ann@example.com' })).toEqual({
      unsubscribed: true,
      doNotSell: true,
    });
    const last = (await redis.xrevrange(list.streamKey, '+', '-', 'COUNT', 2)).map(([, f]) =>
      Object.fromEntries(chunk(f)),
    );
    expect(last[1]).toMatchObject({ requestId: first.requestId, leadId: 'lead-1' });
  });

  it('records again once the window has passed', async () => {
    const shortWindow = new SuppressionList(redis, {
      keyPrefix: prefix,
      hashSecret: SECRET,
      sealer,
      duplicateWindowMs: 50,
    });
    const entry = {
      type: 'unsubscribe' as const,
      source: 'form' as const,
      contact: { phone: '3125550123' },
      request: {},
    };
    const first = await shortWindow.record(entry);
    await new Promise((resolve) => setTimeout(resolve, 80));
    const second = await shortWindow.record(entry);
    expect(second.duplicate).toBe(false);
    expect(second.requestId).not.toBe(first.requestId);
  });

  it('records a request without a contact (a GPC signal) without indexing anything', async () => {
    const before = await redis.hlen(list.indexKey);
    const recorded = await list.record({
      type: 'do-not-sell',
      source: 'global-privacy-control',
      contact: {},
      request: {},
      leadId: 'lead-2',
    });
    expect(recorded.duplicate).toBe(false);
    expect(await redis.hlen(list.indexKey)).toBe(before);
    const [[, fields]] = (await redis.xrevrange(list.streamKey, '+', '-', 'COUNT', 1)) as [
      [string, string[]],
    ];
    expect(Object.fromEntries(chunk(fields))).toMatchObject({
      source: 'global-privacy-control',
      leadId: 'lead-2',
    });
  });
});

function chunk(flat: string[]): Array<[string, string]> {
  const pairs: Array<[string, string]> = [];
  for (let i = 0; i < flat.length; i += 2) pairs.push([flat[i]!, flat[i + 1]!]);
  return pairs;
}
