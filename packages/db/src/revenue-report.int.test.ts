import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { ReturnPolicy } from '@funnel/contracts/buyers';
import type { BuyerReturnRequest } from '@funnel/contracts/buyer-api';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { ReportQuerySchema } from '@funnel/contracts/reports';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { soldLeadEvents } from '@funnel/testing/sold-lead';
import { fileConversion } from './buyer-conversions.js';
import { decideReturn, fileReturn } from './buyer-returns.js';
import { migrate, openDatabase, type Database } from './database.js';
import { recordEvents } from './record-events.js';
import { buyerSalesReport } from './reports.js';
import { affiliateRevenueReport } from './revenue-report.js';

const TZ = 'America/New_York';
const NOW = new Date('2026-11-12T15:00:00.000Z');

const SOLD_AT = new Date('2026-11-10T17:00:00.000Z');

/** Lead `id` created on 2026-11-10 (or `at`) and sold to `buyer` for `price`. */
function sold(id: string, buyer: string, price: number, affiliate?: string, at = SOLD_AT): LeadEvent[] {
  return soldLeadEvents(`lead-rev-fixture-${id}`, { buyer, price, at, ...(affiliate ? { affiliate } : {}) });
}

/** A rejection by prime of lead `id`, at step `step` (a lead prime declined before another bought it). */
function declined(id: string, step: number): LeadEvent {
  const leadId = `lead-rev-fixture-${id}`;
  return {
    eventId: `attempt:${leadId}-${step}`,
    leadId,
    at: SOLD_AT.toISOString(),
    type: 'buyer_attempt',
    attemptKey: `${leadId}-${step}`,
    step,
    buyer: 'prime',
    tier: 1,
    result: 'rejected',
    latencyMs: 80,
    fieldErrors: [],
  };
}

/**
 * Leads created on 2026-11-10 (L1–L6) and one the day before (L7, outside the range):
 * - L1 aff-a, prime 60, return approved, the affiliate's 12.50 payout reversed.
 * - L2 aff-a, prime 40, return pending; funded 1,000.
 * - L3 aff-b, prime 50, return rejected; funded 2,000.
 * - L4 aff-b, second buys at 30, prime declined it too; reported not funded.
 * - L5 no affiliate, second 20, return approved.
 * - L6 aff-a, prime rejects, nobody buys.
 * - L7 aff-a (2026-11-09), prime 90, return approved: not in the range.
 *
 * By hand, per buyer: prime sold 3 of 5 attempts for 150, 1 return of 60 → net 90, 1 pending, 2 funded for
 * 3,000; second sold 2 of 2 for 50, 1 return of 20 → net 30, no conversion funded.
 * Per affiliate: aff-b sold 2 for 80, net 80, 1 funded for 2,000; aff-a sold 2 for 100, 1 return of 60 → net
 * 40, 1 pending, 1 funded for 1,000, 12.50 of payouts reversed; no affiliate: 1 sold for 20, returned → net 0.
 */
const FIXTURE: LeadEvent[] = [
  ...sold('L1', 'prime', 60, 'aff-a'),
  ...sold('L2', 'prime', 40, 'aff-a'),
  ...sold('L3', 'prime', 50, 'aff-b'),
  ...sold('L4', 'second', 30, 'aff-b'),
  declined('L4', 1),
  ...sold('L5', 'second', 20),
  {
    eventId: 'lead-rev-fixture-L6.created',
    leadId: 'lead-rev-fixture-L6',
    at: SOLD_AT.toISOString(),
    type: 'created',
    source: 'partner',
    affiliate: 'aff-a',
  },
  declined('L6', 0),
  ...sold('L7', 'prime', 90, 'aff-a', new Date('2026-11-09T17:00:00.000Z')),
  {
    eventId: 'lead-rev-fixture-L1.payout_reversed',
    leadId: 'lead-rev-fixture-L1',
    at: NOW.toISOString(),
    type: 'payout_reversed',
    affiliate: 'aff-a',
    amount: 12.5,
  },
];

const AUTO: ReturnPolicy = { windowDays: 7, cap: { percent: 100, period: 'month' }, autoApprove: true };
const REVIEWED: ReturnPolicy = { ...AUTO, autoApprove: false };

describe('net revenue after returns, by buyer and by affiliate', () => {
  const schema = testSchema('netrev');
  let db: Kysely<Database>;
  const query = ReportQuerySchema.parse({ from: '2026-11-10', to: '2026-11-10' });

  async function returned(buyer: string, lead: string, policy: ReturnPolicy): Promise<string> {
    const request: BuyerReturnRequest = { reference: `lead-rev-fixture-${lead}`, reason: 'invalid_contact' };
    const result = await fileReturn(db, {
      buyer,
      keyHash: lead,
      fingerprint: lead,
      request,
      policy,
      timeZone: TZ,
      now: NOW,
    });
    if (!('created' in result)) throw new Error(result.message);
    return result.created.returnId;
  }

  async function converted(lead: string, funded: boolean, amount?: number): Promise<void> {
    const result = await fileConversion(db, {
      buyer: lead === 'L4' ? 'second' : 'prime',
      keyHash: lead,
      fingerprint: lead,
      now: NOW,
      request: { reference: `lead-rev-fixture-${lead}`, funded, ...(amount ? { amount } : {}) },
    });
    if (!('created' in result)) throw new Error(result.message);
  }

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    await recordEvents(db, FIXTURE);
    await returned('prime', 'L1', AUTO);
    await returned('prime', 'L2', REVIEWED);
    await decideReturn(db, await returned('prime', 'L3', REVIEWED), 'reject', NOW, 'ops@example.com');
    await returned('second', 'L5', AUTO);
    await returned('prime', 'L7', AUTO);
    await converted('L2', true, 1000);
    await converted('L3', true, 2000);
    await converted('L4', false);
  });
  afterAll(async () => {
    await db.destroy();
    await dropSchema(schema);
  });

  it('reports gross revenue, returns, net revenue and conversions per buyer', async () => {
    const report = await buyerSalesReport(db, query, TZ);
    expect(report.rows).toEqual([
      {
        buyer: 'prime',
        attempts: 5,
        sold: 3,
        acceptRate: 0.6,
        averagePrice: 50,
        timeouts: 0,
        capped: 0,
        revenue: 150,
        returns: 1,
        returnedRevenue: 60,
        netRevenue: 90,
        pendingReturns: 1,
        conversions: 2,
        fundedAmount: 3000,
      },
      {
        buyer: 'second',
        attempts: 2,
        sold: 2,
        acceptRate: 1,
        averagePrice: 25,
        timeouts: 0,
        capped: 0,
        revenue: 50,
        returns: 1,
        returnedRevenue: 20,
        netRevenue: 30,
        pendingReturns: 0,
        conversions: 0,
        fundedAmount: 0,
      },
    ]);
  });

  it('reports the same per affiliate, with the payouts reversed', async () => {
    const report = await affiliateRevenueReport(db, query, TZ);
    const none = {
      returns: 0,
      returnedRevenue: 0,
      pendingReturns: 0,
      conversions: 0,
      fundedAmount: 0,
      payoutsReversed: 0,
    };
    expect(report.rows).toEqual([
      {
        ...none,
        affiliate: 'aff-b',
        sold: 2,
        revenue: 80,
        netRevenue: 80,
        conversions: 1,
        fundedAmount: 2000,
      },
      {
        affiliate: 'aff-a',
        sold: 2,
        revenue: 100,
        returns: 1,
        returnedRevenue: 60,
        netRevenue: 40,
        pendingReturns: 1,
        conversions: 1,
        fundedAmount: 1000,
        payoutsReversed: 12.5,
      },
      { ...none, affiliate: null, sold: 1, revenue: 20, returns: 1, returnedRevenue: 20, netRevenue: 0 },
    ]);
    // One affiliate's view adds up to its row.
    const one = await affiliateRevenueReport(db, { ...query, affiliate: 'aff-a' }, TZ);
    expect(one.rows.map((r) => r.netRevenue)).toEqual([40]);
  });
});
