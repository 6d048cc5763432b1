import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Kysely } from 'kysely';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { ReportQuerySchema } from '@funnel/contracts/reports';
import type { ScreeningReason } from '@funnel/contracts/screening';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { soldLeadEvents } from '@funnel/testing/sold-lead';
import { fileReturn } from './buyer-returns.js';
import { migrate, openDatabase, type Database } from './database.js';
import { qualityReport } from './quality-report.js';
import { recordEvents } from './record-events.js';

const TZ = 'America/New_York';
const AT = new Date('2026-11-10T17:00:00.000Z');
const lead = (id: string) => `lead-quality-fixture-${id}`;

const screened = (
  id: string,
  verdict: 'pass' | 'flag' | 'block',
  score: number,
  reasons: ScreeningReason[] = [],
): LeadEvent => ({
  eventId: `screened-${lead(id)}`,
  leadId: lead(id),
  at: AT.toISOString(),
  type: 'screened',
  verdict,
  score,
  reasons,
  unchecked: [],
  ms: 12,
});
const created = (id: string, affiliate: string): LeadEvent => ({
  eventId: `${lead(id)}.created`,
  leadId: lead(id),
  at: AT.toISOString(),
  type: 'created',
  source: 'funnel',
  affiliate,
});

const schema = testSchema('quality');
let db: Kysely<Database>;

beforeAll(async () => {
  db = openDatabase({ url: testDatabaseUrl(), schema });
  await migrate(db, schema);
  const sold = (id: string, affiliate?: string) =>
    soldLeadEvents(lead(id), { buyer: 'prime', price: 50, at: AT, ...(affiliate ? { affiliate } : {}) });
  await recordEvents(db, [
    // aff-a: a clean sale, a sale on the Do Not Call registry (returned, below), a litigator blocked.
    ...sold('A1', 'aff-a'),
    screened('A1', 'pass', 100),
    ...sold('A2', 'aff-a'),
    screened('A2', 'flag', 70, ['phone_do_not_call']),
    created('A3', 'aff-a'),
    screened('A3', 'block', 0, ['phone_litigator']),
    // aff-b: a sale whose email's domain takes no mail, and a clean lead nobody bought.
    ...sold('B1', 'aff-b'),
    screened('B1', 'flag', 80, ['email_no_mail']),
    created('B2', 'aff-b'),
    screened('B2', 'pass', 100),
    // Sold before screening was on: in no figure.
    ...sold('C1'),
  ]);
  const filed = await fileReturn(db, {
    buyer: 'prime',
    keyHash: 'quality-return',
    fingerprint: 'quality-return',
    request: { reference: lead('A2'), reason: 'did_not_apply' },
    policy: { windowDays: 7, cap: { count: 10, period: 'month' }, autoApprove: true },
    timeZone: TZ,
    now: new Date(AT.getTime() + 86_400_000),
  });
  expect(filed).toHaveProperty('created');
});
afterAll(async () => {
  await db.destroy();
  await dropSchema(schema);
});

it('counts each affiliate’s verdicts and findings, most flagged or blocked first, and returns by band (issue 41)', async () => {
  const report = await qualityReport(
    db,
    ReportQuerySchema.parse({ from: '2026-11-10', to: '2026-11-10' }),
    TZ,
  );
  expect(report.rows).toEqual([
    {
      affiliate: 'aff-a',
      screened: 3,
      passed: 1,
      flagged: 1,
      blocked: 1,
      flaggedOrBlockedRate: 2 / 3,
      findings: [
        { reason: 'phone_do_not_call', leads: 1 },
        { reason: 'phone_litigator', leads: 1 },
      ],
    },
    {
      affiliate: 'aff-b',
      screened: 2,
      passed: 1,
      flagged: 1,
      blocked: 0,
      flaggedOrBlockedRate: 0.5,
      findings: [{ reason: 'email_no_mail', leads: 1 }],
    },
  ]);
  expect(report.bands).toEqual([
    { band: 'A', sold: 1, returned: 0, returnRate: 0 },
    { band: 'B', sold: 2, returned: 1, returnRate: 0.5 },
    { band: 'C', sold: 0, returned: 0, returnRate: 0 },
    { band: 'D', sold: 0, returned: 0, returnRate: 0 },
  ]);
  // Another day, another affiliate: nothing.
  const other = await qualityReport(
    db,
    ReportQuerySchema.parse({ from: '2026-11-11', to: '2026-11-11' }),
    TZ,
  );
  expect(other.rows).toEqual([]);
  const onlyB = await qualityReport(
    db,
    ReportQuerySchema.parse({ from: '2026-11-10', to: '2026-11-10', affiliate: 'aff-b' }),
    TZ,
  );
  expect(onlyB.rows.map((row) => row.affiliate)).toEqual(['aff-b']);
});
