import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Queue } from 'bullmq';
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import type { OperatorRole } from '@funnel/contracts/operators';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { recordEvents } from '@funnel/db/record-events';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { soldLeadEvents } from '@funnel/testing/sold-lead';
import { buyerKey, writePrimeBuyersFile } from './buyer-keys.js';
import { operatorCookies } from './operator-cookies.js';
import { startTestApp, type TestApp } from './test-app.js';

const NOW = new Date('2026-11-20T15:00:00.000Z');
const DAY_MS = 86_400_000;

describe('returns in the operator console (issue 33): managers decide, each decision audited', () => {
  const schema = testSchema('bffreturns');
  const url = `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  const prime = buyerKey('prime');
  const folder = mkdtempSync(path.join(tmpdir(), 'returns-console-'));
  let db: Kysely<Database>;
  let t: TestApp;
  let cookies: Map<OperatorRole, string>;
  let postbacks: Queue;
  const returnIds = new Map<string, string>();

  function as(role: OperatorRole, method: 'GET' | 'POST', route: string, payload?: object) {
    return t.app.inject({
      method,
      url: `/api/v1/admin/${route}`,
      headers: { cookie: cookies.get(role)! },
      ...(payload ? { payload } : {}),
    });
  }

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    t = await startTestApp({
      now: () => NOW,
      env: {
        DATABASE_URL: url,
        BUYER_API_KEYS: prime.entry,
        BUYERS_FILE: writePrimeBuyersFile(folder, {
          windowDays: 5,
          cap: { count: 10, percent: 100, period: 'month' },
          autoApprove: false,
        }),
      },
    });
    const sales = [
      ['lead-console-ret-00001', 1],
      ['lead-console-ret-00002', 2],
    ] as const;
    await recordEvents(
      db,
      sales.flatMap(([leadId, daysAgo]) =>
        soldLeadEvents(leadId, { buyer: 'prime', price: 40, at: new Date(NOW.getTime() - daysAgo * DAY_MS) }),
      ),
    );
    for (const [leadId] of sales) {
      const filed = await t.app.inject({
        method: 'POST',
        url: '/api/v1/buyer/returns',
        headers: { authorization: `Bearer ${prime.key}`, 'idempotency-key': `ret-${leadId}` },
        payload: { reference: leadId, reason: 'did_not_apply', note: 'Borrower says they never applied' },
      });
      expect(filed.json().status, filed.body).toBe('pending');
      returnIds.set(leadId, filed.json().returnId);
    }
    cookies = await operatorCookies(t.app, 'returns.example');
    postbacks = new Queue(JOBS.affiliatePostback.queue, {
      connection: t.redis,
      prefix: queuePrefix(t.env.REDIS_KEY_PREFIX),
    });
  });
  afterAll(async () => {
    await postbacks.close();
    await t.close();
    await db.destroy();
    await dropSchema(schema);
    rmSync(folder, { recursive: true, force: true });
  });

  it('keeps the queue and the decisions from a viewer (403)', async () => {
    expect((await as('viewer', 'GET', 'returns')).statusCode).toBe(403);
    const decide = await as('viewer', 'POST', `returns/${returnIds.get('lead-console-ret-00001')}`, {
      decision: 'approve',
    });
    expect(decide.statusCode).toBe(403);
    const status = await db
      .selectFrom('sale_returns')
      .select('status')
      .where('return_id', '=', returnIds.get('lead-console-ret-00001')!)
      .executeTakeFirstOrThrow();
    expect(status.status).toBe('pending');
  });

  it('lists the pending returns with their reason, buyer, lead, window and cap', async () => {
    const queue = await as('manager', 'GET', 'returns?status=pending');
    expect(queue.statusCode).toBe(200);
    // Filed at the same instant (the test's clock stands still): by lead here.
    const rows = queue
      .json()
      .returns.sort((a: { leadId: string }, b: { leadId: string }) => (a.leadId < b.leadId ? 1 : -1));
    expect(rows).toEqual([
      expect.objectContaining({
        returnId: returnIds.get('lead-console-ret-00002'),
        leadId: 'lead-console-ret-00002',
        buyer: 'prime',
        reason: 'did_not_apply',
        status: 'pending',
        note: 'Borrower says they never applied',
        soldAt: new Date(NOW.getTime() - 2 * DAY_MS).toISOString(),
        windowClosesAt: new Date(NOW.getTime() + 3 * DAY_MS).toISOString(),
        cap: 'at most 10 and 100 % per month',
      }),
      expect.objectContaining({ leadId: 'lead-console-ret-00001' }),
    ]);
    const bad = await as('manager', 'GET', 'returns?status=lost');
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.status).toBe(
      'status must be one of: approved, pending, rejected, reversed.',
    );
  });

  it("approves one and rejects the other, each in the lead's journey and the audit log by that manager", async () => {
    const approveId = returnIds.get('lead-console-ret-00001')!;
    const rejectId = returnIds.get('lead-console-ret-00002')!;
    const approved = await as('manager', 'POST', `returns/${approveId}`, { decision: 'approve' });
    expect(approved.statusCode).toBe(200);
    expect(approved.json()).toMatchObject({ status: 'approved', decidedAt: NOW.toISOString() });
    const rejected = await as('manager', 'POST', `returns/${rejectId}`, { decision: 'reject' });
    expect(rejected.json().status).toBe('rejected');

    const again = await as('admin', 'POST', `returns/${approveId}`, { decision: 'reject' });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.fields).toEqual({
      decision: 'This return was approved already; reload the list.',
    });
    const badDecision = await as('manager', 'POST', `returns/${rejectId}`, { decision: 'maybe' });
    expect(badDecision.statusCode).toBe(400);
    expect(badDecision.json().error.fields).toEqual({ decision: 'decision must be approve or reject.' });

    const journey = (await as('manager', 'GET', 'leads/lead-console-ret-00001')).json();
    expect(journey.timeline.at(-1).event).toMatchObject({
      type: 'returned',
      returnId: approveId,
      approvedBy: 'operator',
    });
    const other = (await as('manager', 'GET', 'leads/lead-console-ret-00002')).json();
    expect(other.timeline.at(-1).event).toMatchObject({ type: 'return_rejected', returnId: rejectId });
    expect((await as('manager', 'GET', 'returns?status=approved')).json().returns).toEqual([
      expect.objectContaining({ returnId: approveId, decidedBy: 'operator' }),
    ]);

    const decisions = await db
      .selectFrom('operator_audit')
      .select(['actor', 'outcome', 'details'])
      .where('action', '=', 'returns.decide')
      .orderBy('audit_id')
      .execute();
    expect(decisions).toEqual([
      { actor: 'viewer@returns.example', outcome: 'denied', details: { needs: 'manager' } },
      {
        actor: 'manager@returns.example',
        outcome: 'allowed',
        details: { returnId: approveId, decision: 'approve' },
      },
      {
        actor: 'manager@returns.example',
        outcome: 'allowed',
        details: { returnId: rejectId, decision: 'reject' },
      },
      {
        actor: 'admin@returns.example',
        outcome: 'allowed',
        details: { returnId: approveId, decision: 'reject' },
      },
    ]);
  });

  it('reverses a decided return for a reason: managers only, 409 when not reversible, in the journey and the audit log', async () => {
    const approvedId = returnIds.get('lead-console-ret-00001')!;
    const rejectedId = returnIds.get('lead-console-ret-00002')!;
    const reason = 'The buyer reached the borrower after all (ticket 4411).';
    const viewer = await as('viewer', 'POST', `returns/${approvedId}/reverse`, { reason });
    expect(viewer.statusCode).toBe(403);
    const short = await as('manager', 'POST', `returns/${approvedId}/reverse`, { reason: 'oops' });
    expect(short.statusCode).toBe(400);
    expect(short.json().error.fields).toEqual({
      reason: 'Say why the decision is reversed (10 to 500 characters).',
    });
    expect((await as('manager', 'POST', 'returns/ret_nothing/reverse', { reason })).statusCode).toBe(404);
    expect(await postbacks.getJob('lead-console-ret-00001.return_reversed')).toBeUndefined();

    // Approved → reversed: the sale stands again, and the worker is asked to restore the affiliate's payout.
    const reversed = await as('manager', 'POST', `returns/${approvedId}/reverse`, { reason });
    expect(reversed.statusCode, reversed.body).toBe(200);
    expect(reversed.json()).toMatchObject({ returnId: approvedId, status: 'reversed' });
    expect((await postbacks.getJob('lead-console-ret-00001.return_reversed'))?.data).toEqual({
      leadId: 'lead-console-ret-00001',
      event: 'return_reversed',
    });
    const again = await as('admin', 'POST', `returns/${approvedId}/reverse`, { reason });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.fields).toEqual({
      reason: 'This return was reversed already; a reversal is final.',
    });
    expect((await as('manager', 'GET', 'returns?status=reversed')).json().returns).toEqual([
      expect.objectContaining({ returnId: approvedId, status: 'reversed', decidedBy: 'operator' }),
    ]);

    // Rejected → approved, inside the window and the cap: the payout reversal is queued as for an approval.
    const approved = await as('manager', 'POST', `returns/${rejectedId}/reverse`, { reason });
    expect(approved.json()).toMatchObject({ returnId: rejectedId, status: 'approved' });
    expect(await postbacks.getJob('lead-console-ret-00002.returned')).toBeDefined();

    const journey = (await as('manager', 'GET', 'leads/lead-console-ret-00001')).json();
    expect(journey.timeline.at(-1).event).toMatchObject({
      type: 'return_reversed',
      returnId: approvedId,
      from: 'approved',
      to: 'reversed',
      reason,
    });
    const other = (await as('manager', 'GET', 'leads/lead-console-ret-00002')).json();
    expect(other.timeline.slice(-3).map((entry: { event: { type: string } }) => entry.event.type)).toEqual([
      'return_rejected',
      'returned',
      'return_reversed',
    ]);

    // A request refused for its input (400) is not an action taken: it is not in the log.
    const audit = await db
      .selectFrom('operator_audit')
      .select(['actor', 'outcome', 'details'])
      .where('action', '=', 'returns.reverse')
      .orderBy('audit_id')
      .execute();
    expect(audit).toEqual([
      { actor: 'viewer@returns.example', outcome: 'denied', details: { needs: 'manager' } },
      { actor: 'manager@returns.example', outcome: 'allowed', details: { returnId: 'ret_nothing', reason } },
      { actor: 'manager@returns.example', outcome: 'allowed', details: { returnId: approvedId, reason } },
      { actor: 'admin@returns.example', outcome: 'allowed', details: { returnId: approvedId, reason } },
      { actor: 'manager@returns.example', outcome: 'allowed', details: { returnId: rejectedId, reason } },
    ]);
  });
});
