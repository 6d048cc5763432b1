import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS } from '@funnel/contracts/jobs';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { openPrivacyRequest } from '@funnel/lead-store/suppression-list';
import { keysUnder } from '@funnel/testing/redis-keys';
import { FUNNEL_NOW } from './funnel-answers.js';
import { answeredLead, submittedLead } from './complete-lead.js';
import { startTestApp, type TestApp } from './test-app.js';

const ADMIN_TOKEN = 'operator-token-0123456789-abcdefghijklmnop';
const EMAIL = 'maria.garcia@example.com';
/** Everything that would name the person: email, phone (as stored and as typed), surname. */
const NEEDLES = [/maria\.garcia@example\.com/i, /2125550142/, /555-0142/, /garcia/i];

interface Found {
  key: string;
  /** Hash field, stream entry id, set member index…, or '(name)' for the key name itself. */
  where: string;
  text: string;
}

/** Every key under the prefix and every value in it, whatever its type: what a raw Redis dump would show. */
async function dump(redis: Redis, prefix: string): Promise<Found[]> {
  const found: Found[] = [];
  for (const key of await keysUnder(redis, prefix)) {
    found.push({ key, where: '(name)', text: key });
    const type = await redis.type(key);
    if (type === 'string') found.push({ key, where: '(value)', text: (await redis.get(key)) ?? '' });
    if (type === 'hash') {
      for (const [field, value] of Object.entries(await redis.hgetall(key))) {
        found.push({ key, where: field, text: `${field}=${value}` });
      }
    }
    if (type === 'set')
      (await redis.smembers(key)).forEach((text, i) => found.push({ key, where: `#${i}`, text }));
    if (type === 'zset') {
      (await redis.zrange(key, 0, '-1')).forEach((text, i) => found.push({ key, where: `#${i}`, text }));
    }
    if (type === 'list') {
      (await redis.lrange(key, 0, -1)).forEach((text, i) => found.push({ key, where: `#${i}`, text }));
    }
    if (type === 'stream') {
      for (const [id, fields] of await redis.xrange(key, '-', '+')) {
        found.push({ key, where: id, text: fields.join(' ') });
      }
    }
  }
  return found;
}

function streamFields(fields: string[]): Record<string, string> {
  const entry: Record<string, string> = {};
  for (let i = 0; i < fields.length; i += 2) entry[fields[i]!] = fields[i + 1]!;
  return entry;
}

describe('POST /api/v1/admin/deletion-requests', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: () => FUNNEL_NOW, env: { ADMIN_API_TOKEN: ADMIN_TOKEN } });
  });
  afterAll(async () => {
    await t.close();
  });

  const erase = (payload: unknown, token = ADMIN_TOKEN) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/admin/deletion-requests',
      payload: payload as Record<string, unknown>,
      headers: { authorization: `Bearer ${token}` },
    });

  it('erases every lead, consent record and job of the contact; a raw scan finds them nowhere else', async () => {
    const prefix = t.env.REDIS_KEY_PREFIX;
    // A submitted lead: consent record, submission job, two mailing-list jobs, a cross-sell forward.
    const submitted = await submittedLead(t.app);
    await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead/cross-sell',
      payload: { answers: [{ question: 'card-offers', answer: 'yes' }] },
      headers: { cookie: submitted.cookie },
    });
    // A second visit from a deep link with the same address, typed differently.
    const deepLink = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead',
      payload: { email: ' Maria.Garcia@Example.COM ', loanReason: 'OTHER' },
    });
    expect(deepLink.statusCode).toBe(201);
    // Someone else, who must be left alone.
    const other = await answeredLead(t.app, {
      steps: [
        ['lgname', { firstName: 'Ann', lastName: 'Lee' }],
        ['email', { email: 'ann.lee@example.com' }],
      ],
    });
    // The person unsubscribed earlier: that request is kept and honoured after the erasure.
    const unsubscribe = await t.app.inject({
      method: 'POST',
      url: '/api/v1/privacy/unsubscribe',
      payload: { email: EMAIL, phone: '(212)-555-0142', reason: 'SPAM' },
    });
    expect(unsubscribe.statusCode).toBe(200);

    // The lead and its consent copy hold the person sealed: before the erasure, nothing but the privacy requests
    // names them in clear.
    expect(await t.redis.exists(`${prefix}consent:${submitted.id}`, t.app.leadStore.key(submitted.id))).toBe(
      2,
    );
    const before = (await dump(t.redis, prefix)).filter((f) => NEEDLES.some((n) => n.test(f.text)));
    expect(before.filter(({ key }) => key !== `${prefix}privacy-requests`)).toEqual([]);

    const response = await erase({ email: EMAIL, phone: '(212)-555-0142' });
    expect(response.statusCode).toBe(200);
    // Jobs: the submission, the two mailing-list syncs and the cross-sell forward.
    expect(response.json()).toEqual({ requestId: expect.any(String), leadsDeleted: 2, jobsRemoved: 4 });

    const streamKey = `${prefix}privacy-requests`;
    const entries = await t.redis.xrange(streamKey, '-', '+');
    const cipher = new FieldCipher(t.env.FIELD_ENCRYPTION_KEYS);
    const unsubscribeEntry = entries.find(([, fields]) => streamFields(fields).type === 'unsubscribe');
    const deletionEntry = entries.find(([, fields]) => streamFields(fields).type === 'deletion');

    // Nothing in Redis names the person in clear; the unsubscribe request they made is kept, sealed, as the
    // record we honour.
    const after = (await dump(t.redis, prefix)).filter((f) => NEEDLES.some((n) => n.test(f.text)));
    expect(after).toEqual([]);
    expect(openPrivacyRequest(cipher, streamFields(unsubscribeEntry![1]))).toMatchObject({ email: EMAIL });

    // The erasure itself is on record, naming the contact by keyed hashes only.
    const deletion = streamFields(deletionEntry![1]);
    expect(deletion).toMatchObject({
      requestId: response.json().requestId,
      type: 'deletion',
      source: 'operator',
      at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T[\d:.]+Z$/),
    });
    expect(openPrivacyRequest(cipher, deletion)).toEqual({
      contact: [expect.stringMatching(/^email:[\w-]{43}$/), expect.stringMatching(/^phone:[\w-]{43}$/)],
      leadsDeleted: 2,
      jobsRemoved: 4,
    });

    // Nothing of the two leads is left: hashes, consent records, claims, jobs. But one: the job that tells the
    // buyers that received a lead to erase it too (issue 41), which holds the lead's id, the kind and the time.
    const keys = await keysUnder(t.redis, prefix);
    const deepLinkId = deepLink.cookies[0]!.value.split('.')[0]!;
    const optOuts = `${prefix}bull:${JOBS.buyerOptOut.queue}:`;
    for (const id of [submitted.id, deepLinkId]) {
      expect(keys.filter((key) => key.includes(id) && !key.startsWith(optOuts))).toEqual([]);
      const job = await t.redis.hget(`${optOuts}${id}.deletion`, 'data');
      expect(JSON.parse(job!)).toEqual({
        leadId: id,
        kind: 'deletion',
        requestedAt: expect.any(String),
        told: [],
      });
    }

    // The opt-out still holds; the other visitor's lead is untouched and still findable.
    expect(await t.app.suppressionList.isSuppressed({ email: EMAIL })).toMatchObject({ unsubscribed: true });
    expect(await t.app.leadStore.get(other.id)).not.toBeNull();
    expect(await t.app.contactIndex.leadsOf({ email: 'ann.lee@example.com' })).toEqual([other.id]);
  });

  it('erases by phone alone, including a lead that held another email', async () => {
    const { id } = await answeredLead(t.app, {
      steps: [
        ['lgname', { firstName: 'Sam', lastName: 'Ortiz' }],
        ['email', { email: 'sam.ortiz@example.com' }],
        ['cellphone', { phone: '(646)-555-0111' }],
      ],
    });
    const response = await erase({ phone: '6465550111' });
    expect(response.json()).toMatchObject({ leadsDeleted: 1 });
    expect(await t.app.leadStore.get(id)).toBeNull();
    // Its email entry went with it, so a later request by email finds nothing.
    expect(await t.app.contactIndex.leadsOf({ email: 'sam.ortiz@example.com' })).toEqual([]);
  });

  it('needs an email or a phone (400) and the operator token (401)', async () => {
    const empty = await erase({});
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error.code).toBe('VALIDATION_FAILED');
    expect((await erase({ email: 'bad' })).statusCode).toBe(400);
    expect((await erase({ email: EMAIL }, 'not-the-operator-token-0123456789-xyz')).statusCode).toBe(401);
  });

  it('answers a request for an unknown contact with nothing erased', async () => {
    expect((await erase({ email: 'nobody@example.com', phone: '3125550199' })).json()).toMatchObject({
      leadsDeleted: 0,
      jobsRemoved: 0,
    });
  });
});
