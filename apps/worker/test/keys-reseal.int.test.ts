// Key rotation that retires keys (issue 32): a store populated under an old key (leads, one written in clear by
// the older version, consent copies, the consent archive, the privacy log and operators' TOTP secrets) is
// re-sealed while a save lands meanwhile; afterwards every record opens with the new key alone.
import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { archiveConsents, getArchivedConsent } from '@funnel/db/consent-archive';
import { migrate, openDatabase } from '@funnel/db/database';
import { createAccount, findAccount, updateAccount } from '@funnel/db/operator-accounts';
import { listPrivacyRequests, logPrivacyRequests } from '@funnel/db/privacy-request-log';
import { resealDatabase } from '@funnel/db/reseal';
import { currentBuyerConfig, importBuyersIfEmpty } from '@funnel/db/buyer-config';
import { BuyersFileSchema } from '@funnel/contracts/buyers';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { resealRedis } from '@funnel/lead-store/reseal';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';

const oldKey = { id: 'old', key: randomBytes(32) };
const newKey = { id: 'new', key: randomBytes(32) };
const LEADS = 40;

describe('npm run keys:reseal', () => {
  const prefix = testKeyPrefix('reseal');
  const schema = testSchema('reseal');
  const db = openDatabase({ url: testDatabaseUrl(), schema });
  let redis: Redis;

  beforeAll(async () => {
    redis = new Redis(inject('redisUrl'));
    await migrate(db, schema);
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
    await db.destroy();
    await dropSchema(schema);
  });

  it('re-seals every lead, consent record and privacy request so the new key alone opens them', async () => {
    const before = new LeadStore(redis, new FieldCipher([oldKey]), { keyPrefix: prefix, ttlMs: 3600_000 });
    const ids: string[] = [];
    for (let i = 0; i < LEADS; i++) {
      const id = await before.create({
        first_name: `Ann${i}`,
        email: `ann${i}@example.com`,
        ssn: `12345${i}`,
      });
      ids.push(id);
      const consent = {
        leadId: id,
        version: 'v1',
        textSha256: 'a'.repeat(64),
        text: 'I agree.',
        button: 'REQUEST_FUNDS' as const,
        at: '2026-11-20T15:00:00.000Z',
        ip: '203.0.113.9',
        userAgent: 'Mozilla/5.0',
        pageUrl: 'https://apply.example/ssn',
        contact: { firstName: `Ann${i}`, email: `ann${i}@example.com` },
      };
      await before.retainConsent(consent, 3600_000);
      await archiveConsents(db, [consent], { sealer: new FieldCipher([oldKey]), retentionDays: 30 });
    }
    // A draft the older version wrote, its name and email in clear.
    const legacy = 'legacy-lead-0000000001';
    await redis.hset(before.key(legacy), 'first_name', '"Lee"', 'email', '"lee@example.com"');
    ids.push(legacy);
    await logPrivacyRequests(
      db,
      [
        {
          requestId: 'req-1',
          type: 'unsubscribe',
          source: 'form',
          at: '2026-11-20T15:00:00.000Z',
          contactHashes: ['email:x'],
          details: {},
          request: { email: 'ann0@example.com' },
        },
      ],
      new FieldCipher([oldKey]),
    );

    // An operator's TOTP secret (ADR 0021), sealed with the account id as associated data.
    const operator = 'c0ffee00-0000-4000-8000-000000000001';
    await createAccount(db, {
      accountId: operator,
      email: 'op@example.com',
      displayName: 'Op',
      role: 'admin',
    });
    await updateAccount(db, operator, {
      totp_sealed: new FieldCipher([oldKey]).seal('JBSWY3DPEHPK3PXP', operator),
    });

    // A buyer's credential (ADR 0022), sealed with its version's id as associated data.
    const buyers = BuyersFileSchema.parse({
      timeZone: 'America/Chicago',
      buyers: [
        {
          id: 'b1',
          protocol: 'sync-post',
          baseUrl: 'http://127.0.0.1:9/b1',
          apiKey: 'b1-key',
          tier: 1,
          priceLadder: [1],
        },
      ],
    });
    await importBuyersIfEmpty(db, new FieldCipher([oldKey]), buyers);

    const rotated = new FieldCipher([newKey, oldKey]);
    const ttlBefore = await redis.pttl(before.key(ids[0]!));
    // A save landing while the pass runs (the apps keep running): it must survive.
    const during = new LeadStore(redis, rotated, { keyPrefix: prefix, ttlMs: 3600_000 });
    const watcher = redis.duplicate();
    const [inRedis] = await Promise.all([
      resealRedis(watcher, rotated, { keyPrefix: prefix, currentKeyId: 'new' }),
      during.update(ids[1]!, { last_name: 'Saved-meanwhile' }),
    ]);
    watcher.disconnect();
    const inDatabase = await resealDatabase(db, rotated, { currentKeyId: 'new' });

    expect(inRedis.leads).toMatchObject({ seen: LEADS + 1, resealed: LEADS + 1 });
    expect(inRedis.consents).toMatchObject({ seen: LEADS, resealed: LEADS });
    expect(inDatabase.consentArchive).toMatchObject({ seen: LEADS, resealed: LEADS });
    expect(inDatabase.privacyRequests).toMatchObject({ seen: 1, resealed: 1 });
    expect(inDatabase.operatorSecrets).toMatchObject({ seen: 1, resealed: 1 });
    expect(inDatabase.buyerCredentials).toMatchObject({ seen: 1, resealed: 1 });

    // The old key removed from the ring: everything still opens.
    const after = new FieldCipher([newKey]);
    expect((await currentBuyerConfig(db, after))?.file.buyers[0]?.apiKey).toBe('b1-key');
    const store = new LeadStore(redis, after, { keyPrefix: prefix, ttlMs: 3600_000 });
    for (const [i, id] of ids.slice(0, LEADS).entries()) {
      expect((await store.get(id))?.fields).toMatchObject({ first_name: `Ann${i}`, ssn: `12345${i}` });
      expect((await store.consents.get(id))?.contact.email).toBe(`ann${i}@example.com`);
      expect((await getArchivedConsent(db, id, after))?.contact.email).toBe(`ann${i}@example.com`);
    }
    expect((await store.get(ids[1]!))?.fields.last_name).toBe('Saved-meanwhile');
    expect((await store.get(legacy))?.fields).toEqual({ first_name: 'Lee', email: 'lee@example.com' });
    expect(await redis.hget(before.key(legacy), 'email')).toMatch(/^enc:v1:new:/);
    expect(await redis.pttl(before.key(ids[0]!))).toBeGreaterThan(ttlBefore - 60_000);
    const [logged] = await listPrivacyRequests(
      db,
      { from: new Date('2026-11-20'), to: new Date('2026-11-21'), limit: 10 },
      after,
    );
    expect(logged?.request).toEqual({ email: 'ann0@example.com' });
    const account = await findAccount(db, { accountId: operator });
    expect(after.open(account!.totp_sealed!, operator)).toBe('JBSWY3DPEHPK3PXP');

    // A second pass finds nothing left to do.
    const again = await resealRedis(redis, after, { keyPrefix: prefix, currentKeyId: 'new' });
    expect(again.leads.resealed + again.consents.resealed).toBe(0);
  }, 60_000);
});
