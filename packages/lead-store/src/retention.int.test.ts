import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import type { RetainedConsent } from '@funnel/contracts/consent';
import { ContactIndex } from './contact-index.js';
import { FieldCipher } from './field-cipher.js';
import { LeadStore, PURGED_AFTER_OUTCOME } from './lead-store.js';

const YEAR_MS = 365 * 24 * 3600 * 1000;

describe('retention and erasure in the lead store', () => {
  const prefix = testKeyPrefix('retention');
  let redis: Redis;
  let index: ContactIndex;
  let store: LeadStore;

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
    index = new ContactIndex(redis, { keyPrefix: prefix, hashSecret: 'x'.repeat(32), ttlMs: 5 * YEAR_MS });
    store = new LeadStore(redis, new FieldCipher([{ id: 'k1', key: randomBytes(32) }]), {
      keyPrefix: prefix,
      ttlMs: 60_000,
      contactIndex: index,
    });
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
  });

  it('purges SSN, bank account, routing and licence numbers, and only those', async () => {
    const id = await store.create({
      first_name: 'Ann',
      dob: '1990-01-02',
      ssn: '123456789',
      bank_account_number: '000123456789',
      bank_aba: '021000021',
      drivers_license_number: 'G1234',
      drivers_license_state: 'NY',
    });
    expect(await store.purgeSensitive(id)).toBe(PURGED_AFTER_OUTCOME.length);
    const lead = await store.get(id);
    expect(lead?.fields).toEqual({
      first_name: 'Ann',
      dob: '1990-01-02',
      drivers_license_state: 'NY',
      created_at: expect.any(String),
      updated_at: expect.any(String),
    });
    expect(await redis.hget(store.key(id), '_sensitive_purged_at')).toMatch(/^"\d{4}-/);
    expect(await store.purgeSensitive(id)).toBe(0);
    await store.delete(id);
    expect(await store.purgeSensitive(id)).toBe(-1);
    expect(await redis.exists(store.key(id))).toBe(0);
  });

  it('keeps the first consent record apart from the lead for its own retention period', async () => {
    const id = await store.create({ first_name: 'Ann' });
    const record: RetainedConsent = {
      leadId: id,
      version: '2026-11-21.1',
      text: 'By clicking…',
      textSha256: 'a'.repeat(64),
      button: 'REQUEST_CASH',
      at: '2026-11-21T10:00:00.000Z',
      ip: '203.0.113.9',
      userAgent: 'UA',
      pageUrl: 'https://apply.example.com/requestcash',
      contact: { email: 'ann@example.com' },
    };
    expect(await store.retainConsent(record, 5 * YEAR_MS)).toBe(true);
    expect(await store.retainConsent({ ...record, ip: '198.51.100.1' }, 5 * YEAR_MS)).toBe(false);
    await store.delete(id);
    expect(await store.consents.get(id)).toEqual(record);
    expect(await redis.pttl(store.consents.key(id))).toBeGreaterThan(4 * YEAR_MS);
  });

  it('indexes each saved email and phone to its leads, by keyed hash only', async () => {
    const first = await store.create({ email: 'Zoe@Example.com' });
    const second = await store.create({ first_name: 'Zoe' });
    await store.update(second, { home_phone: '2125550177' });
    await store.update(second, { email: 'zoe@example.com ' });

    expect((await index.leadsOf({ email: 'zoe@example.com' })).sort()).toEqual([first, second].sort());
    expect(await index.leadsOf({ phone: '(212)-555-0177' })).toEqual([second]);
    const keys = index.keys({ email: 'zoe@example.com', phone: '2125550177' });
    expect(keys).toHaveLength(2);
    for (const key of keys) {
      expect(key).not.toMatch(/zoe|2125550177/i);
      expect(await redis.pttl(key)).toBeGreaterThan(4 * YEAR_MS);
    }
  });

  it('erases leads with their posting claim and consent record', async () => {
    const id = await store.create({ email: 'gone@example.com' });
    await store.claimPost(id, 60_000);
    await redis.set(store.consents.key(id), '{}');
    expect(await store.deleteLeads([id, 'never-existed-lead-000'])).toBe(1);
    expect(await redis.exists(store.key(id), `${store.key(id)}:posting`, store.consents.key(id))).toBe(0);
  });

  it('stores cross-sell answers on a live lead only', async () => {
    const id = await store.create({ first_name: 'Ann' });
    const record = {
      answers: [{ question: 'auto-insurance' as const, answer: 'yes' as const }],
      markers: [13 as const],
      updatedAt: '2026-11-21T10:00:00.000Z',
    };
    expect(await store.setCrossSell(id, record)).toBe(true);
    expect((await store.get(id))?.crossSell).toEqual(record);
    await store.delete(id);
    expect(await store.setCrossSell(id, record)).toBe(false);
    expect(await redis.exists(store.key(id))).toBe(0);
  });
});
