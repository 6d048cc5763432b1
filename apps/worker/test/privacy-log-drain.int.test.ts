import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { migrate, openDatabase } from '@funnel/db/database';
import { listPrivacyRequests } from '@funnel/db/privacy-request-log';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { SuppressionList } from '@funnel/lead-store/suppression-list';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import { startStreamDrainer, type StreamEntries } from '../src/system-of-record/event-drainer.js';
import { privacyLogWriter } from '../src/system-of-record/privacy-log-drain.js';
import { until } from '@funnel/testing/until';

const MARIA = { email: 'Maria.Garcia@example.com', phone: '2125550142' };
const ANN = { email: 'ann.lee@example.com', phone: '6465550100' };
/** Whatever would name Maria, in any table's text. */
const NEEDLES = /maria|garcia|2125550142|555-0142|Elm Street/i;
const DO_NOT_SELL = {
  stateResidencyPrompt: 'CA',
  firstName: 'Maria',
  lastName: 'Garcia',
  ...MARIA,
  country: 'US',
  zip: '94105',
  state: 'CA',
  address: '12 Elm Street',
  city: 'San Francisco',
};

describe('the privacy-request log in PostgreSQL', () => {
  const schema = testSchema('privlog');
  const keyPrefix = testKeyPrefix('privlog');
  const redisUrl = inject('redisUrl');
  const redis = new Redis(redisUrl);
  const hashSecret = randomBytes(32).toString('base64url');
  let clock = new Date('2026-11-20T15:00:00Z');
  const sealer = new FieldCipher([{ id: 'c1', key: randomBytes(32) }]);
  const suppression = new SuppressionList(redis, { keyPrefix, hashSecret, sealer, now: () => clock });
  const db = openDatabase({ url: testDatabaseUrl(), schema });
  const logger = pino({ level: 'silent' });
  const write = privacyLogWriter({ db, sealer, hashSecret, logger });
  const range = { from: new Date('2026-11-01T00:00:00Z'), to: new Date('2026-12-01T00:00:00Z'), limit: 100 };
  const later = (minutes: number) => (clock = new Date(clock.getTime() + minutes * 60_000));

  beforeAll(async () => {
    await migrate(db, schema);
  });
  afterAll(async () => {
    await db.destroy();
    await dropSchema(schema);
    await deleteKeys(redis, keyPrefix);
    await redis.quit();
  });

  /** Every row of the table as text: what a dump of PostgreSQL would show. */
  const dump = async () => JSON.stringify(await db.selectFrom('privacy_requests').selectAll().execute());

  /** Runs the worker's drain of the stream until Redis holds nothing and the table `rows` rows. */
  async function drain(rows: number): Promise<void> {
    const drainer = startStreamDrainer({
      redis: new Redis(redisUrl, { maxRetriesPerRequest: null }),
      streamKey: suppression.streamKey,
      what: 'privacy requests',
      logger,
      concurrency: 1,
      write,
    });
    try {
      await until('the privacy requests in PostgreSQL', async () => {
        const { n } = await db
          .selectFrom('privacy_requests')
          .select((eb) => eb.fn.countAll<string>().as('n'))
          .executeTakeFirstOrThrow();
        return (await redis.xlen(suppression.streamKey)) === 0 && Number(n) === rows;
      });
    } finally {
      await drainer.stop();
    }
  }

  it('moves requests from Redis to PostgreSQL, the person sealed, what names nobody in clear', async () => {
    await suppression.record({
      type: 'unsubscribe',
      source: 'form',
      contact: MARIA,
      request: { ...MARIA, reason: 'SPAM' },
    });
    later(1);
    await suppression.record({
      type: 'do-not-sell',
      source: 'form',
      contact: MARIA,
      request: DO_NOT_SELL,
      leadId: 'lead-dns-form-000001',
    });
    later(1);
    await suppression.record({
      type: 'unsubscribe',
      source: 'form',
      contact: ANN,
      request: { ...ANN, reason: 'TOO_MANY' },
    });
    later(1);
    await suppression.record({
      type: 'do-not-sell',
      source: 'global-privacy-control',
      contact: {},
      request: {},
      leadId: 'lead-with-gpc-000001',
    });
    // Until drained, the stream (and so Redis's AOF) holds each request sealed. Positive controls: the needles
    // match the requests as sent, and the stream read holds all four (a lead id is stored in clear).
    expect(JSON.stringify([MARIA, DO_NOT_SELL])).toMatch(NEEDLES);
    const stream = await redis.xrange(suppression.streamKey, '-', '+');
    expect(stream).toHaveLength(4);
    expect(JSON.stringify(stream)).toContain('lead-dns-form-000001');
    expect(JSON.stringify(stream)).not.toMatch(NEEDLES);
    await drain(4);

    // The Redis copy is gone; the suppression index (hashes) still answers.
    expect(await redis.xlen(suppression.streamKey)).toBe(0);
    expect(await suppression.isSuppressed({ email: MARIA.email })).toEqual({
      unsubscribed: true,
      doNotSell: true,
    });
    // The dump reads the four rows (a lead id is kept in clear), and none names Maria.
    expect(await dump()).toContain('lead-dns-form-000001');
    expect(await dump()).not.toMatch(NEEDLES);

    const log = await listPrivacyRequests(db, range, sealer);
    expect(log).toEqual([
      {
        requestId: expect.any(String),
        type: 'unsubscribe',
        source: 'form',
        at: '2026-11-20T15:00:00.000Z',
        details: { reason: 'SPAM' },
        request: { ...MARIA, reason: 'SPAM' },
      },
      {
        requestId: expect.any(String),
        type: 'do-not-sell',
        source: 'form',
        at: '2026-11-20T15:01:00.000Z',
        leadId: 'lead-dns-form-000001',
        details: { stateResidencyPrompt: 'CA' },
        request: DO_NOT_SELL,
      },
      expect.objectContaining({ type: 'unsubscribe', request: { ...ANN, reason: 'TOO_MANY' } }),
      {
        requestId: expect.any(String),
        type: 'do-not-sell',
        source: 'global-privacy-control',
        at: '2026-11-20T15:03:00.000Z',
        leadId: 'lead-with-gpc-000001',
        details: {},
      },
    ]);
  });

  it('a deletion request erases the person from the log and keeps the fact of each request', async () => {
    later(10);
    const deletionId = await suppression.recordDeletion(MARIA, { leadsDeleted: 1, jobsRemoved: 2 });
    await drain(5);

    expect(await dump()).not.toMatch(NEEDLES);
    const log = await listPrivacyRequests(db, range, sealer);
    const erasedAt = '2026-11-20T15:13:00.000Z';
    expect(log.slice(0, 2)).toEqual([
      expect.objectContaining({ type: 'unsubscribe', details: { reason: 'SPAM' }, erasedAt }),
      expect.objectContaining({ type: 'do-not-sell', details: { stateResidencyPrompt: 'CA' }, erasedAt }),
    ]);
    expect(log[0]).not.toHaveProperty('request');
    expect(log[1]).not.toHaveProperty('request');
    // Ann is untouched; the erasure is on record with what it removed.
    expect(log[2]).toMatchObject({ request: { ...ANN, reason: 'TOO_MANY' } });
    expect(log[2]).not.toHaveProperty('erasedAt');
    expect(log[4]).toEqual({
      requestId: deletionId,
      type: 'deletion',
      source: 'operator',
      at: erasedAt,
      details: { leadsDeleted: 1, jobsRemoved: 2 },
    });
    // And the opt-outs are still honoured.
    expect(await suppression.isSuppressed({ phone: MARIA.phone })).toMatchObject({ unsubscribed: true });
  });

  it('erases a request drained after its deletion, and keeps one the person made afterwards', async () => {
    // A request made before an erasure but written to PostgreSQL after it (another batch, another worker).
    later(1);
    const before = await suppression.record({
      type: 'do-not-sell',
      source: 'form',
      contact: { ...MARIA, email: 'maria.g@example.org' },
      request: { ...DO_NOT_SELL, email: 'maria.g@example.org' },
    });
    later(5);
    await suppression.recordDeletion({ phone: MARIA.phone }, { leadsDeleted: 0, jobsRemoved: 0 });
    const entries = (await redis.xrange(suppression.streamKey, '-', '+')) as StreamEntries;
    expect(entries).toHaveLength(2);
    await write(undefined, [entries[1]!]);
    await write(undefined, [entries[0]!]);
    await redis.del(suppression.streamKey);
    const row = await db
      .selectFrom('privacy_requests')
      .select(['request_sealed', 'erased_at'])
      .where('request_id', '=', before.requestId)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({ request_sealed: null, erased_at: new Date(clock) });

    // Asked again after the erasure: a new request, kept.
    later(5);
    const contact = { email: 'maria.g@example.org', phone: MARIA.phone };
    const again = await suppression.record({
      type: 'unsubscribe',
      source: 'form',
      contact,
      request: { ...contact, reason: 'OTHER' },
    });
    await drain(8);
    const log = await listPrivacyRequests(db, range, sealer);
    expect(log.find((r) => r.requestId === again.requestId)).toMatchObject({
      request: { ...contact, reason: 'OTHER' },
    });
    expect(log.find((r) => r.requestId === again.requestId)).not.toHaveProperty('erasedAt');
  });
});
