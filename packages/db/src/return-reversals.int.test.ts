import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { ReturnPolicy } from '@funnel/contracts/buyers';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { ReportQuerySchema } from '@funnel/contracts/reports';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { soldLeadEvents } from '@funnel/testing/sold-lead';
import { buyerRecords } from './buyer-records.js';
import { decideReturn, fileReturn } from './buyer-returns.js';
import { migrate, openDatabase, type Database } from './database.js';
import { recordEvents } from './record-events.js';
import { buyerSalesReport } from './reports.js';
import { returnStateOf, reverseReturn } from './return-reversals.js';
import { affiliateRevenueReport } from './revenue-report.js';

const TZ = 'America/New_York';
const SOLD_AT = new Date('2026-11-10T17:00:00.000Z');
const NOW = new Date('2026-11-12T15:00:00.000Z');
const LATER = new Date('2026-11-13T15:00:00.000Z');
const DAY = 86_400_000;

/** Two a month for each buyer: the second return of a month is over the cap. */
const CAPPED: ReturnPolicy = { windowDays: 7, cap: { count: 1, period: 'month' }, autoApprove: true };
const REVIEWED: ReturnPolicy = { ...CAPPED, autoApprove: false };

const lead = (id: string) => `lead-reverse-fixture-${id}`;

describe('reversing a decided return', () => {
  const schema = testSchema('reverse');
  let db: Kysely<Database>;
  const query = ReportQuerySchema.parse({ from: '2026-11-10', to: '2026-11-10' });
  let policy: ReturnPolicy = CAPPED;

  async function file(buyer: string, id: string, now = NOW) {
    return fileReturn(db, {
      buyer,
      keyHash: `${id}-${now.getTime()}`,
      fingerprint: `${id}-${now.getTime()}`,
      request: { reference: lead(id), reason: 'invalid_contact' },
      policy,
      timeZone: TZ,
      now,
    });
  }
  async function returned(buyer: string, id: string): Promise<string> {
    const result = await file(buyer, id);
    if (!('created' in result)) throw new Error(result.message);
    return result.created.returnId;
  }
  const reverse = (returnId: string, now = LATER) =>
    reverseReturn(db, {
      returnId,
      reason: 'The buyer confirmed the contact was valid.',
      policyOf: () => policy,
      timeZone: TZ,
      now,
      operator: 'max@example.com',
    });
  const figures = async () => ({
    buyers: await buyerSalesReport(db, query, TZ),
    affiliates: await affiliateRevenueReport(db, query, TZ),
    records: Object.fromEntries(
      await buyerRecords(db, { now: LATER.getTime() + DAY, windowMs: 7 * DAY, returnWindowMs: 30 * DAY }),
    ),
  });
  const payout = (id: string, type: 'payout_reversed' | 'payout_restored'): LeadEvent => ({
    eventId: `${lead(id)}.${type}`,
    leadId: lead(id),
    at: LATER.toISOString(),
    type,
    affiliate: 'aff-a',
    amount: 12.5,
  });

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    await recordEvents(db, [
      ...soldLeadEvents(lead('A1'), { buyer: 'prime', price: 60, at: SOLD_AT, affiliate: 'aff-a' }),
      ...soldLeadEvents(lead('A2'), { buyer: 'prime', price: 40, at: SOLD_AT, affiliate: 'aff-a' }),
      ...soldLeadEvents(lead('B1'), { buyer: 'second', price: 30, at: SOLD_AT, affiliate: 'aff-b' }),
      ...soldLeadEvents(lead('B2'), { buyer: 'second', price: 20, at: SOLD_AT, affiliate: 'aff-b' }),
      ...soldLeadEvents(lead('C1'), { buyer: 'third', price: 10, at: SOLD_AT }),
    ]);
  });
  afterAll(async () => {
    await db.destroy();
    await dropSchema(schema);
  });

  it('puts the sale back: the buyer and affiliate reports and the buyer record read as before the return', async () => {
    const before = await figures();
    const returnId = await returned('prime', 'A1');
    // The worker reversed the affiliate's payout.
    await recordEvents(db, [payout('A1', 'payout_reversed')]);
    const during = await figures();
    expect(during.buyers.rows.find((r) => r.buyer === 'prime')).toMatchObject({
      revenue: 100,
      returns: 1,
      returnedRevenue: 60,
      netRevenue: 40,
    });
    expect(during.affiliates.rows.find((r) => r.affiliate === 'aff-a')).toMatchObject({
      netRevenue: 40,
      payoutsReversed: 12.5,
    });
    expect(during.records.prime).toMatchObject({ returned: 1 });
    expect(await returnStateOf(db, lead('A1'))).toEqual({ status: 'approved', payoutReversed: true });

    const result = await reverse(returnId);
    expect(result).toMatchObject({ reversed: true, from: 'approved', value: { status: 'reversed' } });
    // The worker restored the payout.
    await recordEvents(db, [payout('A1', 'payout_restored')]);
    expect(await figures()).toEqual(before);
    expect(await returnStateOf(db, lead('A1'))).toEqual({ status: 'reversed', payoutReversed: true });

    // The journey holds the reversal with the manager's reason.
    const events = await db
      .selectFrom('lead_events')
      .select(['type', 'data'])
      .where('lead_id', '=', lead('A1'))
      .where('type', '=', 'return_reversed')
      .execute();
    expect(events).toMatchObject([
      { data: { from: 'approved', to: 'reversed', reason: 'The buyer confirmed the contact was valid.' } },
    ]);
  });

  it('frees the cap, is final, and a reversed sale cannot be returned again', async () => {
    // prime's cap (1 a month) was freed by the reversal above: A2 can be returned.
    const a2 = await returned('prime', 'A2');
    expect(await file('prime', 'A1', LATER)).toMatchObject({ refused: 'already_reported' });
    const again = await reverse((await returnStateIdOf('A1'))!);
    expect(again).toEqual({
      reversed: false,
      message: 'This return was reversed already; a reversal is final.',
    });
    expect(await countEvents('A1', 'return_reversed')).toBe(1);
    // Two managers at once: one reversal wins, the other is told.
    const both = await Promise.all([reverse(a2), reverse(a2)]);
    expect(both.filter((r) => r?.reversed)).toHaveLength(1);
    expect(both.filter((r) => r && !r.reversed)).toHaveLength(1);
    expect(await countEvents('A2', 'return_reversed')).toBe(1);
  });

  it('approves a rejected return only under the cap and inside the window, and refuses a pending one', async () => {
    policy = REVIEWED;
    const b1 = await returned('second', 'B1');
    expect(await reverse(b1)).toEqual({
      reversed: false,
      message: 'This return is still waiting for a decision: approve or reject it.',
    });
    await decideReturn(db, b1, 'reject', NOW, 'ops@example.com');
    // second's cap (1 a month) is taken by B2's pending return: approving B1 would pass it.
    await returned('second', 'B2');
    const refused = await reverse(b1);
    expect(refused).toMatchObject({ reversed: false });
    expect(refused && !refused.reversed && refused.message).toMatch(
      /^Approving it would pass the cap\. The return cap is reached: 1 of the 2 leads sold to second/,
    );
    expect((await figures()).buyers.rows.find((r) => r.buyer === 'second')).toMatchObject({ netRevenue: 50 });
    // Once B2's return is rejected, B1's can be approved, but only while the window is open.
    await decideReturn(db, (await returnStateIdOf('B2'))!, 'reject', NOW, 'ops@example.com');
    const closed = await reverse(b1, new Date(SOLD_AT.getTime() + 8 * DAY));
    expect(closed && !closed.reversed && closed.message).toMatch(
      /^The return window closed at 2026-11-17T17:00/,
    );
    expect(await reverse(b1)).toMatchObject({
      reversed: true,
      from: 'rejected',
      value: { status: 'approved' },
    });
    expect((await figures()).buyers.rows.find((r) => r.buyer === 'second')).toMatchObject({
      returns: 1,
      returnedRevenue: 30,
      netRevenue: 20,
    });
    expect(await countEvents('B1', 'returned')).toBe(1);
    expect(await returnStateOf(db, lead('B1'))).toEqual({ status: 'approved', payoutReversed: false });
  });

  it('does not reverse an approval after the window closed, and knows no unknown return', async () => {
    policy = CAPPED;
    const c1 = await returned('third', 'C1');
    const closed = await reverse(c1, new Date(SOLD_AT.getTime() + 7 * DAY + 1));
    expect(closed).toMatchObject({ reversed: false });
    expect(await returnStateOf(db, lead('C1'))).toEqual({ status: 'approved', payoutReversed: false });
    expect(await reverse('ret_unknown')).toBeUndefined();
  });

  async function returnStateIdOf(id: string): Promise<string | undefined> {
    const row = await db
      .selectFrom('sale_returns')
      .select('return_id')
      .where('lead_id', '=', lead(id))
      .orderBy('filed_at', 'desc')
      .executeTakeFirst();
    return row?.return_id;
  }
  async function countEvents(id: string, type: string): Promise<number> {
    const rows = await db
      .selectFrom('lead_events')
      .select('event_id')
      .where('lead_id', '=', lead(id))
      .where('type', '=', type)
      .execute();
    return rows.length;
  }
});
