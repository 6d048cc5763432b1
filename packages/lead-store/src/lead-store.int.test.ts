import { randomBytes } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import { inject } from 'vitest';
import { CONSENT_VERSION, type ConsentRecord } from '@funnel/contracts/consent';
import { FieldCipher } from './field-cipher.js';
import { LeadStore, META, Unopened } from './lead-store.js';
import { submissionEvidence } from './submission-evidence.js';

const submission = { submittedAt: '2026-11-21T10:00:00.000Z', deadlineAt: '2026-11-21T10:05:10.000Z' };
const consent: ConsentRecord = {
  version: CONSENT_VERSION,
  textSha256: 'a'.repeat(64),
  button: 'REQUEST_CASH',
  at: submission.submittedAt,
  ip: '203.0.113.7',
  userAgent: 'test',
  pageUrl: 'https://funnel.example/apply/consent',
  partnerListVersion: 'v1',
};
const YEAR_MS = 365 * 24 * 3600_000;
/** The evidence of lead `id`'s submission: its consent kept for five years and its `submitted` event. */
const evidenceOf = (id: string) =>
  submissionEvidence(
    {
      leadId: id,
      consent,
      fields: { first_name: 'Ann' },
      source: 'funnel',
      submittedAt: new Date(submission.submittedAt),
    },
    { retentionMs: 5 * YEAR_MS, withEvents: true },
  );

describe('LeadStore on real Redis', () => {
  const prefix = testKeyPrefix('lead-store');
  let redis: Redis;
  let subscriber: Redis;
  let store: LeadStore;

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
    subscriber = new Redis(inject('redisUrl'));
    store = new LeadStore(redis, new FieldCipher([{ id: 'k1', key: randomBytes(32) }]), {
      keyPrefix: prefix,
      ttlMs: 60_000,
    });
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    await Promise.all([redis.quit(), subscriber.quit()]);
  });

  it('stores answers under server names and seals sensitive and personal ones', async () => {
    const id = await store.create(
      { first_name: 'Ann', email: 'ann@example.com', ssn: '123456789', loan_amount: 500 },
      { utmSource: 'x' },
    );
    const raw = await redis.hgetall(store.key(id));
    expect(raw.loan_amount).toBe('500');
    expect(raw.first_name).toMatch(/^enc:v1:k1:/);
    expect(raw.email).toMatch(/^enc:v1:k1:/);
    expect(raw.ssn).toMatch(/^enc:v1:k1:/);
    expect(JSON.stringify(raw)).not.toMatch(/123456789|Ann|ann@example/);
    const lead = await store.get(id);
    expect(lead?.fields).toMatchObject({ first_name: 'Ann', ssn: '123456789', loan_amount: 500 });
    expect(lead?.tracking).toEqual({ utmSource: 'x' });
    expect(await redis.pttl(store.key(id))).toBeGreaterThan(50_000);
  });

  it('reads a draft an older version stored in clear, and opens only what the caller asks for', async () => {
    const id = LeadStore.newLeadId();
    await redis.hset(
      store.key(id),
      'first_name',
      '"Ann"',
      'email',
      '"ann@example.com"',
      'loan_amount',
      '500',
    );
    expect((await store.get(id))?.fields).toEqual({
      first_name: 'Ann',
      email: 'ann@example.com',
      loan_amount: 500,
    });
    await store.update(id, { home_phone: '2125550142', last_name: 'Lee' });
    const partly = await store.get(id, { open: (field) => field === 'home_phone' });
    expect(partly?.fields).toMatchObject({ home_phone: '2125550142', first_name: 'Ann', loan_amount: 500 });
    expect(partly?.fields.last_name).toBeInstanceOf(Unopened);
  });

  it('saves onto a live lead only', async () => {
    const id = await store.create({ first_name: 'Ann' });
    expect(await store.update(id, { last_name: 'Lee' })).toBe(true);
    await store.delete(id);
    expect(await store.update(id, { last_name: 'Lee' })).toBe(false);
    expect(await redis.exists(store.key(id))).toBe(0);
  });

  it('records a submission once', async () => {
    const id = await store.create({ first_name: 'Ann' });
    expect(await store.startSubmission(id, submission, evidenceOf(id), { _marker: '1' })).toBe('created');
    expect(await store.startSubmission(id, submission, evidenceOf(id))).toBe('already');
    expect(
      await store.startSubmission('missing-lead-id-0000', submission, evidenceOf('missing-lead-id-0000')),
    ).toBe('missing');
    expect(await redis.exists(store.key('missing-lead-id-0000'))).toBe(0);
    expect((await store.get(id))?.submission).toEqual(submission);
  });

  it('marks a submitted lead pending and keeps it in the outbox, in the same step, until its job exists', async () => {
    const id = await store.create({ first_name: 'Ann' });
    expect(await store.outboxBefore(Date.now())).not.toContain(id);
    await store.startSubmission(id, submission, evidenceOf(id));
    expect((await store.get(id))?.outcome).toMatchObject({ outcome: 'pending', seq: 1 });
    expect(await store.outboxBefore(Date.now())).toContain(id);
    expect(await store.outboxBefore(Date.now() - 60_000)).not.toContain(id);
    await store.outboxDone(id);
    expect(await store.outboxBefore(Date.now())).not.toContain(id);
  });

  it('writes the evidence in the step that records the submission, once, and completes it where it is missing', async () => {
    const events = `${prefix}lead-events`;
    const submittedEvents = async (id: string) =>
      (await redis.xrange(events, '-', '+')).filter(([, fields]) => fields[1]?.includes(`"${id}.submitted"`));
    const id = await store.create({ first_name: 'Ann' });
    await store.startSubmission(id, submission, evidenceOf(id), { [META.consent]: JSON.stringify(consent) });
    expect(await store.consents.get(id)).toMatchObject({ leadId: id, contact: { firstName: 'Ann' } });
    expect(await redis.pttl(store.consents.key(id))).toBeGreaterThan(4 * YEAR_MS);
    expect(await submittedEvents(id)).toHaveLength(1);
    const policy = { retentionMs: 5 * YEAR_MS, withEvents: true };
    expect(await store.completeSubmission(id, policy)).toBe('complete');
    expect(await submittedEvents(id)).toHaveLength(1);

    // A lead submitted before the evidence went with the submission: only its consent record on the lead.
    const older = await store.create({ first_name: 'Bo' });
    await redis.hset(store.key(older), META.submission, JSON.stringify(submission));
    await redis.hset(store.key(older), META.consent, JSON.stringify(consent));
    expect(await store.completeSubmission(older, policy)).toBe('completed');
    expect(await store.completeSubmission(older, policy)).toBe('complete');
    expect(await store.consents.get(older)).toMatchObject({ leadId: older, contact: { firstName: 'Bo' } });
    expect(await submittedEvents(older)).toHaveLength(1);
    expect(await store.completeSubmission('missing-lead-id-0000', policy)).toBe('missing');
  });

  it('flags a lead not to be sold once, keeping the first reason, and never resurrects a gone lead', async () => {
    const id = await store.create({ first_name: 'Ann' });
    expect((await store.get(id))?.doNotSell).toBeUndefined();
    expect(await store.flagDoNotSell(id, 'global-privacy-control')).toBe('flagged');
    expect(await store.flagDoNotSell(id, 'do-not-sell-request')).toBe('already');
    const lead = await store.get(id);
    expect(lead?.doNotSell).toEqual({ source: 'global-privacy-control', at: expect.any(String) });
    expect(lead?.fields).not.toHaveProperty('_do_not_sell');
    expect(await store.flagDoNotSell('missing-lead-id-0000', 'do-not-sell-request')).toBe('missing');
    expect(await redis.exists(store.key('missing-lead-id-0000'))).toBe(0);
  });

  it('publishes each outcome change and never replaces a final one', async () => {
    const id = await store.create({ first_name: 'Ann' });
    const messages: string[] = [];
    await subscriber.subscribe(store.outcomeChannel);
    subscriber.on('message', (_channel, message) => messages.push(message));

    const pending = await store.setOutcome(id, { outcome: 'pending' });
    expect(pending).toMatchObject({ outcome: 'pending', seq: 1 });
    const sold = await store.setOutcome(id, {
      outcome: 'sold',
      redirectUrl: 'https://lender.example/offer/1',
    });
    expect(sold).toMatchObject({ outcome: 'sold', seq: 2, redirectUrl: 'https://lender.example/offer/1' });
    const late = await store.setOutcome(id, { outcome: 'no_lender', reason: 'deadline' });
    expect(late).toEqual(sold);
    expect(await store.getOutcome(id)).toEqual(sold);

    await expect.poll(() => messages.length).toBe(2);
    expect(messages.map((m) => JSON.parse(m))).toEqual([
      { leadId: id, seq: 1 },
      { leadId: id, seq: 2 },
    ]);
    expect(await store.setOutcome('missing-lead-id-0000', { outcome: 'pending' })).toBeUndefined();
  });
});
