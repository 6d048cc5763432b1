import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { ReportQuerySchema } from '@funnel/contracts/reports';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { migrate, openDatabase, type Database } from './database.js';
import { recordEvents } from './record-events.js';
import { buyerSalesReport } from './reports.js';

const TZ = 'America/New_York';

function created(leadId: string, day: string): LeadEvent {
  return {
    eventId: `${leadId}.created`,
    leadId,
    at: `${day}T17:00:00.000Z`,
    type: 'created',
    source: 'funnel',
  };
}

function attempt(
  leadId: string,
  step: number,
  buyer: string,
  result: 'sold' | 'rejected' | 'invalid' | 'timeout' | 'capped',
  extra: { floor?: number; price?: number } = {},
): LeadEvent {
  return {
    eventId: `attempt:${leadId}-${step}`,
    leadId,
    at: '2026-11-10T17:01:00.000Z',
    type: 'buyer_attempt',
    attemptKey: `${leadId}-${step}`,
    step,
    buyer,
    tier: buyer === 'prime' ? 1 : 2,
    result,
    latencyMs: 120,
    fieldErrors:
      result === 'invalid'
        ? [{ field: 'bank_aba', buyerField: 'BankRoutingNumber', description: 'Invalid' }]
        : [],
    ...extra,
  };
}

/**
 * Three leads on 2026-11-10 and one the day before (outside the range):
 * - A: prime rejects at 80, sells at 50 for 62.5.
 * - B: prime times out at 80, refuses the fields; network sells at 30.
 * - C: prime capped; network rejects.
 * - D (2026-11-09): prime sells at 80 for 90, not counted.
 */
const FIXTURE: LeadEvent[] = [
  created('lead-fixture-000A', '2026-11-10'),
  attempt('lead-fixture-000A', 0, 'prime', 'rejected', { floor: 80 }),
  attempt('lead-fixture-000A', 1, 'prime', 'sold', { floor: 50, price: 62.5 }),
  created('lead-fixture-000B', '2026-11-10'),
  attempt('lead-fixture-000B', 0, 'prime', 'timeout', { floor: 80 }),
  attempt('lead-fixture-000B', 1, 'prime', 'invalid', { floor: 50 }),
  attempt('lead-fixture-000B', 2, 'network', 'sold', { price: 30 }),
  created('lead-fixture-000C', '2026-11-10'),
  attempt('lead-fixture-000C', 0, 'prime', 'capped', { floor: 80 }),
  attempt('lead-fixture-000C', 2, 'network', 'rejected'),
  created('lead-fixture-000D', '2026-11-09'),
  attempt('lead-fixture-000D', 0, 'prime', 'sold', { floor: 80, price: 90 }),
];

describe('sales by buyer', () => {
  const schema = testSchema('buyers');
  let db: Kysely<Database>;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    expect(await recordEvents(db, FIXTURE)).toBe(FIXTURE.length);
    // The drain is at least once: the same attempts again change nothing.
    expect(await recordEvents(db, FIXTURE.slice(3))).toBe(0);
  });
  afterAll(async () => {
    await db.destroy();
    await dropSchema(schema);
  });

  it('keeps every attempt with its mapped field errors', async () => {
    const rows = await db.selectFrom('buyer_attempts').selectAll().orderBy('attempt_key').execute();
    expect(rows).toHaveLength(8);
    const invalid = rows.find((r) => r.result === 'invalid')!;
    expect(invalid.field_errors).toEqual([
      { field: 'bank_aba', buyerField: 'BankRoutingNumber', description: 'Invalid' },
    ]);
    expect(Number(rows.find((r) => r.attempt_key === 'lead-fixture-000A-1')!.price)).toBe(62.5);
  });

  it('reports attempts, accept rate, revenue, average price and timeouts per buyer, with no return to net', async () => {
    const report = await buyerSalesReport(
      db,
      ReportQuerySchema.parse({ from: '2026-11-10', to: '2026-11-10' }),
      TZ,
    );
    expect(report.rows).toEqual([
      {
        buyer: 'prime',
        attempts: 4,
        sold: 1,
        acceptRate: 0.25,
        revenue: 62.5,
        netRevenue: 62.5,
        returns: 0,
        returnedRevenue: 0,
        pendingReturns: 0,
        conversions: 0,
        fundedAmount: 0,
        averagePrice: 62.5,
        timeouts: 1,
        capped: 1,
      },
      {
        buyer: 'network',
        attempts: 2,
        sold: 1,
        acceptRate: 0.5,
        revenue: 30,
        netRevenue: 30,
        returns: 0,
        returnedRevenue: 0,
        pendingReturns: 0,
        conversions: 0,
        fundedAmount: 0,
        averagePrice: 30,
        timeouts: 0,
        capped: 0,
      },
    ]);
  });
});
