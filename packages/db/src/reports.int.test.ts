import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { ReportQuerySchema } from '@funnel/contracts/reports';
import { STEP_NAMES, type StepName } from '@funnel/contracts/steps';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { migrate, openDatabase, type Database } from './database.js';
import { recordEvents } from './record-events.js';
import { funnelReport, salesReport } from './reports.js';

const TZ = 'America/New_York';

/** A lead's events: created on `day` (noon in New York), then its first `steps` steps, then what followed. */
function lead(
  n: number,
  options: {
    day: string;
    affiliate?: string;
    source?: 'funnel' | 'partner';
    steps: number;
    submitted?: boolean;
    outcome?: 'sold' | 'rejected' | 'no_lender';
    reason?: string;
    secondsToDecision?: number;
  },
): LeadEvent[] {
  const leadId = `lead-fixture-${String(n).padStart(4, '0')}`;
  const at = (minutes: number) =>
    new Date(Date.parse(`${options.day}T17:00:00Z`) + minutes * 60_000).toISOString();
  const events: LeadEvent[] = [
    {
      eventId: `${leadId}.created`,
      leadId,
      at: at(0),
      type: 'created',
      source: options.source ?? 'funnel',
      ...(options.affiliate ? { affiliate: options.affiliate } : {}),
      utmSource: 'google',
      amount: 500,
    },
  ];
  STEP_NAMES.slice(0, options.steps).forEach((step, i) =>
    events.push({ eventId: `${leadId}.${step}`, leadId, at: at(i + 1), type: 'step_completed', step }),
  );
  if (options.submitted) {
    events.push({
      eventId: `${leadId}.submitted`,
      leadId,
      at: at(30),
      type: 'submitted',
      source: options.source ?? 'funnel',
    });
  }
  if (options.outcome) {
    events.push({
      eventId: `${leadId}.outcome`,
      leadId,
      at: at(31),
      type: 'outcome',
      outcome: options.outcome,
      ...(options.reason ? { reason: options.reason } : {}),
      ...(options.secondsToDecision !== undefined ? { secondsToDecision: options.secondsToDecision } : {}),
    });
  }
  return events;
}

const ALL = STEP_NAMES.length;

/** A lead created on 2026-12-01 (aff-ooo) that saved exactly `steps`, in that order (an API client). */
function leadWithSteps(n: number, steps: readonly StepName[]): LeadEvent[] {
  const leadId = `lead-out-of-order-${n}`;
  const at = (minutes: number) =>
    new Date(Date.parse('2026-12-01T17:00:00Z') + minutes * 60_000).toISOString();
  return [
    {
      eventId: `${leadId}.created`,
      leadId,
      at: at(0),
      type: 'created',
      source: 'funnel',
      affiliate: 'aff-ooo',
    },
    ...steps.map((step, i): LeadEvent => ({
      eventId: `${leadId}.${step}`,
      leadId,
      at: at(i + 1),
      type: 'step_completed',
      step,
    })),
  ];
}

/**
 * The fixture, counted by hand:
 * - 2026-11-10, aff-a: 4 leads. Two stop after 2 steps, one after 5, one completes and is sold after 40 s.
 * - 2026-11-10, aff-b: 2 partner leads, complete: one sold (20 s), one rejected (60 s).
 * - 2026-11-11, no affiliate: 1 lead, complete, no lender (300 s).
 * - 2026-11-09: 1 lead outside the range.
 */
const FIXTURE: LeadEvent[] = [
  ...lead(1, { day: '2026-11-10', affiliate: 'aff-a', steps: 2 }),
  ...lead(2, { day: '2026-11-10', affiliate: 'aff-a', steps: 2 }),
  ...lead(3, { day: '2026-11-10', affiliate: 'aff-a', steps: 5 }),
  ...lead(4, {
    day: '2026-11-10',
    affiliate: 'aff-a',
    steps: ALL,
    submitted: true,
    outcome: 'sold',
    secondsToDecision: 40,
  }),
  ...lead(5, {
    day: '2026-11-10',
    affiliate: 'aff-b',
    source: 'partner',
    steps: ALL,
    submitted: true,
    outcome: 'sold',
    secondsToDecision: 20,
  }),
  ...lead(6, {
    day: '2026-11-10',
    affiliate: 'aff-b',
    source: 'partner',
    steps: ALL,
    submitted: true,
    outcome: 'rejected',
    reason: 'all_buyers_declined',
    secondsToDecision: 60,
  }),
  ...lead(7, {
    day: '2026-11-11',
    steps: ALL,
    submitted: true,
    outcome: 'no_lender',
    reason: 'no_buyer_decided',
    secondsToDecision: 300,
  }),
  // 2026-11-12, aff-c: decision times that interpolate to binary noise unless rounded.
  ...lead(9, {
    day: '2026-11-12',
    affiliate: 'aff-c',
    steps: ALL,
    submitted: true,
    outcome: 'sold',
    secondsToDecision: 4.7,
  }),
  ...lead(10, {
    day: '2026-11-12',
    affiliate: 'aff-c',
    steps: ALL,
    submitted: true,
    outcome: 'sold',
    secondsToDecision: 4.778,
  }),
  ...lead(11, {
    day: '2026-11-12',
    affiliate: 'aff-c',
    steps: ALL,
    submitted: true,
    outcome: 'sold',
    secondsToDecision: 4.9,
  }),
  // 2026-12-01, aff-ooo: steps saved out of order (issue 33). One lead saved the phone alone, one the phone
  // then the name, one the name and the email in order.
  ...leadWithSteps(1, ['cellphone']),
  ...leadWithSteps(2, ['cellphone', 'lgname']),
  ...leadWithSteps(3, ['lgname', 'email']),
  ...lead(8, {
    day: '2026-11-09',
    affiliate: 'aff-a',
    steps: ALL,
    submitted: true,
    outcome: 'sold',
    secondsToDecision: 10,
  }),
];

describe('reports over the system of record', () => {
  const schema = testSchema('reports');
  let db: Kysely<Database>;

  beforeAll(async () => {
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    // Written twice, in two batches, in another order: the drain is at least once.
    expect(await recordEvents(db, FIXTURE)).toBe(FIXTURE.length);
    expect(await recordEvents(db, [...FIXTURE].reverse())).toBe(0);
  });
  afterAll(async () => {
    await db.destroy();
    await dropSchema(schema);
  });

  it('counts each position of the funnel and the outcomes as the fixture says', async () => {
    const report = await funnelReport(
      db,
      ReportQuerySchema.parse({ from: '2026-11-10', to: '2026-11-11' }),
      TZ,
    );
    const byStep = Object.fromEntries(report.steps.map((row) => [row.step, row]));
    expect(byStep.landing).toEqual({ step: 'landing', reached: 7, completed: 7, dropOff: 0, dropOffRate: 0 });
    expect(byStep[STEP_NAMES[0]!]).toMatchObject({ reached: 7, completed: 7, dropOff: 0 });
    expect(byStep[STEP_NAMES[2]!]).toMatchObject({ reached: 7, completed: 5, dropOff: 2 });
    expect(byStep[STEP_NAMES[2]!]!.dropOffRate).toBeCloseTo(2 / 7);
    expect(byStep[STEP_NAMES[5]!]).toMatchObject({ reached: 5, completed: 4, dropOff: 1, dropOffRate: 0.2 });
    expect(byStep[STEP_NAMES[ALL - 1]!]).toMatchObject({ reached: 4, completed: 4, dropOff: 0 });
    expect(report.steps.map((row) => row.step)).toEqual(['landing', ...STEP_NAMES]);
    expect(report.outcomes).toEqual({ created: 7, submitted: 4, sold: 2, rejected: 1, noLender: 1 });
    // Which walks nobody decided (no lender) and which a buyer declined (rejected), as the worker recorded.
    expect(report.outcomeReasons).toEqual([
      { outcome: 'rejected', reason: 'all_buyers_declined', leads: 1 },
      { outcome: 'no_lender', reason: 'no_buyer_decided', leads: 1 },
    ]);
  });

  it('never counts more leads completing a step than reaching it, whatever order the steps were saved in', async () => {
    const report = await funnelReport(
      db,
      ReportQuerySchema.parse({ from: '2026-12-01', to: '2026-12-01' }),
      TZ,
    );
    const byStep = Object.fromEntries(report.steps.map((row) => [row.step, row]));
    // A lead reached a screen when it completed the one before it or any later one.
    expect(byStep.landing).toMatchObject({ reached: 3, completed: 3, dropOff: 0 });
    expect(byStep.lgname).toMatchObject({ reached: 3, completed: 2, dropOff: 1 });
    expect(byStep.email).toMatchObject({ reached: 3, completed: 1, dropOff: 2 });
    expect(byStep.cellphone).toMatchObject({ reached: 3, completed: 2, dropOff: 1 });
    expect(byStep.besttimecontact).toMatchObject({ reached: 2, completed: 0, dropOff: 2, dropOffRate: 1 });
    expect(byStep.dob).toMatchObject({ reached: 0, completed: 0, dropOff: 0, dropOffRate: 0 });
    let previous = Infinity;
    for (const row of report.steps) {
      expect(row.completed).toBeLessThanOrEqual(row.reached);
      expect(row.reached).toBeLessThanOrEqual(previous);
      previous = row.reached;
    }
  });

  it('filters by affiliate and by source', async () => {
    const byAffiliate = await funnelReport(
      db,
      ReportQuerySchema.parse({ from: '2026-11-01', to: '2026-11-30', affiliate: 'aff-a' }),
      TZ,
    );
    expect(byAffiliate.outcomes).toEqual({ created: 5, submitted: 2, sold: 2, rejected: 0, noLender: 0 });
    const partners = await funnelReport(
      db,
      ReportQuerySchema.parse({ from: '2026-11-10', to: '2026-11-10', source: 'partner' }),
      TZ,
    );
    expect(partners.outcomes).toEqual({ created: 2, submitted: 2, sold: 1, rejected: 1, noLender: 0 });
  });

  it('rounds decision times in SQL to a tenth of a second (issue 25: 4.7780000000000005 in the CSV)', async () => {
    const report = await salesReport(
      db,
      ReportQuerySchema.parse({ from: '2026-11-12', to: '2026-11-12' }),
      TZ,
    );
    expect(report.rows).toEqual([
      expect.objectContaining({
        affiliate: 'aff-c',
        medianSecondsToDecision: 4.8,
        p90SecondsToDecision: 4.9,
      }),
    ]);
  });

  it('reports sales per day and affiliate with the median and p90 time to decision', async () => {
    const report = await salesReport(
      db,
      ReportQuerySchema.parse({ from: '2026-11-10', to: '2026-11-11' }),
      TZ,
    );
    expect(report.rows).toEqual([
      {
        day: '2026-11-10',
        affiliate: 'aff-a',
        submitted: 1,
        sold: 1,
        soldRate: 1,
        medianSecondsToDecision: 40,
        p90SecondsToDecision: 40,
      },
      {
        day: '2026-11-10',
        affiliate: 'aff-b',
        submitted: 2,
        sold: 1,
        soldRate: 0.5,
        medianSecondsToDecision: 40,
        p90SecondsToDecision: 56,
      },
      {
        day: '2026-11-11',
        affiliate: null,
        submitted: 1,
        sold: 0,
        soldRate: 0,
        medianSecondsToDecision: 300,
        p90SecondsToDecision: 300,
      },
    ]);
  });
});
