import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { soldLeadEvents } from '@funnel/testing/sold-lead';
import { buyerKey, writePrimeBuyersFile } from './buyer-keys.js';
import { startTestApp, type TestApp } from './test-app.js';

const TOKEN = 'operator-'.padEnd(40, 'b');
const NOW = new Date('2026-11-20T15:00:00.000Z');

function sold(leadId: string, buyer: string, price: number, daysAgo: number): LeadEvent[] {
  return soldLeadEvents(leadId, {
    buyer,
    price,
    at: new Date(NOW.getTime() - daysAgo * 86_400_000),
    affiliate: 'aff-x',
  });
}

describe('the buyer API: returns and conversions', () => {
  const schema = testSchema('buyerapi');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const prime = buyerKey('prime');
  const other = buyerKey('other');
  const folder = mkdtempSync(path.join(tmpdir(), 'buyers-'));
  let db: Kysely<Database>;
  let t: TestApp;
  let postbacks: Queue;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    const buyersFile = writePrimeBuyersFile(folder, {
      windowDays: 5,
      cap: { count: 10, period: 'month' },
      autoApprove: { reasons: ['invalid_contact'] },
    });
    t = await startTestApp({
      now: () => NOW,
      env: {
        DATABASE_URL: url,
        ADMIN_API_TOKEN: TOKEN,
        BUYER_API_KEYS: `${prime.entry},${other.entry}`,
        BUYERS_FILE: buyersFile,
      },
    });
    postbacks = new Queue(JOBS.affiliatePostback.queue, {
      connection: t.redis,
      prefix: queuePrefix(t.env.REDIS_KEY_PREFIX),
    });
    await recordEvents(db, [
      ...sold('lead-buyerapi-00001', 'prime', 45, 1),
      ...sold('lead-buyerapi-00002', 'prime', 45, 6),
      ...sold('lead-buyerapi-00003', 'prime', 30, 2),
      ...sold('lead-buyerapi-00004', 'prime', 25, 2),
    ]);
  });
  afterAll(async () => {
    await postbacks.close();
    await t.close();
    await db.destroy();
    await dropSchema(schema);
    rmSync(folder, { recursive: true, force: true });
  });

  function post(
    kind: 'returns' | 'conversions',
    key: string | undefined,
    body: unknown,
    idempotencyKey?: string,
  ) {
    return t.app.inject({
      method: 'POST',
      url: `/api/v1/buyer/${kind}`,
      headers: {
        ...(key ? { authorization: `Bearer ${key}` } : {}),
        ...(idempotencyKey ? { 'idempotency-key': idempotencyKey } : {}),
      },
      payload: body as Record<string, unknown>,
    });
  }

  it('needs a buyer key, an Idempotency-Key and a reason from the list, and says which field is wrong', async () => {
    const body = { reference: 'lead-buyerapi-00001', reason: 'invalid_contact' };
    expect((await post('returns', undefined, body, 'k')).statusCode).toBe(401);
    expect((await post('returns', 'fbk_wrong', body, 'k')).statusCode).toBe(401);
    const noKey = await post('returns', prime.key, body);
    expect(noKey.statusCode).toBe(400);
    expect(noKey.json().error.fields['idempotency-key']).toMatch(/^Idempotency-Key is required/);
    const badReason = await post('returns', prime.key, { ...body, reason: 'changed_mind' }, 'k-bad');
    expect(badReason.statusCode).toBe(400);
    expect(badReason.json().error.fields.reason).toBe(
      'reason must be one of: invalid_contact, duplicate, fraud, did_not_apply, out_of_criteria, ' +
        'invalid_bank_account, other.',
    );
    const noAmount = await post(
      'conversions',
      prime.key,
      { reference: 'lead-buyerapi-00001', funded: true },
      'c-bad',
    );
    expect(noAmount.json().error.fields.amount).toMatch(/^amount is required when funded is true/);
  });

  it('approves a return by the buyer’s rule, answers a repeat with it, and queues the payout reversal', async () => {
    const body = { reference: 'lead-buyerapi-00001', reason: 'invalid_contact' };
    const first = await post('returns', prime.key, body, 'ret-1');
    expect(first.statusCode).toBe(201);
    expect(first.json()).toMatchObject({ leadId: 'lead-buyerapi-00001', status: 'approved', price: 45 });
    const repeat = await post('returns', prime.key, body, 'ret-1');
    expect(repeat.statusCode).toBe(200);
    expect(repeat.headers['idempotent-replayed']).toBe('true');
    expect(repeat.json()).toEqual(first.json());
    const reused = await post('returns', prime.key, { ...body, reason: 'duplicate' }, 'ret-1');
    expect(reused.statusCode).toBe(422);
    expect(reused.json().error.code).toBe('IDEMPOTENCY_KEY_REUSED');
    const job = await postbacks.getJob('lead-buyerapi-00001.returned');
    expect(job?.data).toEqual({ leadId: 'lead-buyerapi-00001', event: 'returned' });
    const again = await post('returns', prime.key, { ...body, reason: 'duplicate' }, 'ret-1b');
    expect(again.statusCode).toBe(409);
    expect(again.json().error).toMatchObject({ code: 'ALREADY_REPORTED' });
  });

  it('refuses another buyer’s lead and a sale past the window, naming the reference', async () => {
    const notYours = await post(
      'returns',
      other.key,
      { reference: 'lead-buyerapi-00003', reason: 'fraud' },
      'o-1',
    );
    expect(notYours.statusCode).toBe(404);
    expect(notYours.json().error.fields.reference).toMatch(/^No lead was sold to you under this reference/);
    const late = await post(
      'returns',
      prime.key,
      { reference: 'lead-buyerapi-00002', reason: 'invalid_contact' },
      'late',
    );
    expect(late.statusCode).toBe(422);
    expect(late.json().error).toMatchObject({ code: 'RETURN_WINDOW_CLOSED' });
    expect(late.json().error.fields.reference).toMatch(/up to 5 days after the sale/);
  });

  it('queues a return the rule does not cover; an operator approves it once', async () => {
    const filed = await post(
      'returns',
      prime.key,
      { reference: 'lead-buyerapi-00003-0', reason: 'fraud', note: 'SSN belongs to someone else' },
      'q-1',
    );
    expect(filed.statusCode).toBe(201);
    expect(filed.json().status).toBe('pending');
    expect(await postbacks.getJob('lead-buyerapi-00003.returned')).toBeUndefined();
    const admin = { authorization: `Bearer ${TOKEN}` };
    const queue = await t.app.inject({ method: 'GET', url: '/api/v1/admin/returns', headers: admin });
    expect(queue.json().returns).toEqual([
      expect.objectContaining({
        returnId: filed.json().returnId,
        buyer: 'prime',
        note: 'SSN belongs to someone else',
      }),
    ]);
    const decide = (decision: string) =>
      t.app.inject({
        method: 'POST',
        url: `/api/v1/admin/returns/${filed.json().returnId}`,
        headers: admin,
        payload: { decision },
      });
    const approved = await decide('approve');
    expect(approved.statusCode).toBe(200);
    expect(approved.json().status).toBe('approved');
    expect((await decide('reject')).statusCode).toBe(409);
    expect(await postbacks.getJob('lead-buyerapi-00003.returned')).toBeDefined();
  });

  it('records conversions once per sale, and the buyer report nets the returns', async () => {
    const funded = await post(
      'conversions',
      prime.key,
      { reference: 'lead-buyerapi-00004', funded: true, amount: 1200 },
      'c-1',
    );
    expect(funded.statusCode).toBe(201);
    expect(funded.json()).toMatchObject({ funded: true, amount: 1200 });
    const twice = await post(
      'conversions',
      prime.key,
      { reference: 'lead-buyerapi-00004', funded: false },
      'c-2',
    );
    expect(twice.statusCode).toBe(409);

    const report = await t.app.inject({
      method: 'GET',
      url: '/api/v1/admin/reports/buyers?from=2026-11-01&to=2026-11-30',
      headers: { authorization: `Bearer ${TOKEN}` },
    });
    // Sold 45 + 45 + 30 + 25; returned 45 (rule) and 30 (operator).
    expect(report.json().rows).toEqual([
      expect.objectContaining({
        buyer: 'prime',
        sold: 4,
        revenue: 145,
        returns: 2,
        returnedRevenue: 75,
        netRevenue: 70,
        pendingReturns: 0,
        conversions: 1,
        fundedAmount: 1200,
      }),
    ]);
  });
});
