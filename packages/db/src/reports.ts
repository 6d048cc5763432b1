import { sql, type Kysely } from 'kysely';
import {
  FUNNEL_POSITIONS,
  type BuyerSalesReport,
  type FunnelReport,
  type FunnelStepRow,
  type OutcomeReasonRow,
  type ReportQuery,
  type SalesReport,
} from '@funnel/contracts/reports';
import type { Database } from './database.js';
import { createdDay, filtersOf, matches } from './report-filters.js';
import { revenueFigures } from './revenue-report.js';

/**
 * The funnel over the leads created in the range: how many reached and completed each position in wizard order,
 * the drop-off between them, and how the leads ended up.
 */
export async function funnelReport(
  db: Kysely<Database>,
  query: ReportQuery,
  timeZone: string,
): Promise<FunnelReport> {
  const [totals, steps, furthest, reasons] = await Promise.all([
    db
      .selectFrom('lead_summary')
      .where(matches(query, timeZone))
      .select((eb) => [
        eb.fn.countAll<string>().as('created'),
        eb.fn.count<string>('submitted_at').as('submitted'),
        sql<string>`count(*) filter (where outcome = 'sold')`.as('sold'),
        sql<string>`count(*) filter (where outcome = 'rejected')`.as('rejected'),
        sql<string>`count(*) filter (where outcome = 'no_lender')`.as('noLender'),
      ])
      .executeTakeFirstOrThrow(),
    db
      .selectFrom('lead_steps')
      .innerJoin('lead_summary', 'lead_summary.lead_id', 'lead_steps.lead_id')
      .where(matches(query, timeZone))
      .select((eb) => ['lead_steps.step', eb.fn.countAll<string>().as('completed')])
      .groupBy('lead_steps.step')
      .execute(),
    // Each lead's furthest position: the latest step it completed, in wizard order (1 = the first step).
    db
      .selectFrom((qb) =>
        qb
          .selectFrom('lead_steps')
          .innerJoin('lead_summary', 'lead_summary.lead_id', 'lead_steps.lead_id')
          .where(matches(query, timeZone))
          .select(
            sql<number>`max(array_position(${sql.val([...FUNNEL_POSITIONS])}::text[], lead_steps.step))`.as(
              'furthest',
            ),
          )
          .groupBy('lead_steps.lead_id')
          .as('furthest_by_lead'),
      )
      .select((eb) => ['furthest', eb.fn.countAll<string>().as('leads')])
      .where('furthest', 'is not', null)
      .groupBy('furthest')
      .execute(),
    db
      .selectFrom('lead_summary')
      .where(matches(query, timeZone))
      .where('outcome', 'in', ['rejected', 'no_lender'])
      .select((eb) => ['outcome', 'outcome_reason', eb.fn.countAll<string>().as('leads')])
      .groupBy(['outcome', 'outcome_reason'])
      .orderBy('outcome', 'desc')
      .orderBy(sql`3 desc`)
      .orderBy('outcome_reason')
      .execute(),
  ]);
  const created = Number(totals.created);
  const completedBy = new Map(steps.map((row) => [row.step, Number(row.completed)]));
  const reachedBy = reachedCounts(
    created,
    furthest.map((row) => ({ position: Number(row.furthest) - 1, leads: Number(row.leads) })),
  );
  const rows: FunnelStepRow[] = FUNNEL_POSITIONS.map((step, index) => {
    const reached = reachedBy[index]!;
    const completed = step === 'landing' ? created : (completedBy.get(step) ?? 0);
    const dropOff = Math.max(0, reached - completed);
    return { step, reached, completed, dropOff, dropOffRate: reached > 0 ? dropOff / reached : 0 };
  });
  return {
    filters: filtersOf(query),
    steps: rows,
    outcomes: {
      created,
      submitted: Number(totals.submitted),
      sold: Number(totals.sold),
      rejected: Number(totals.rejected),
      noLender: Number(totals.noLender),
    },
    outcomeReasons: reasons.map((row): OutcomeReasonRow => ({
      outcome: row.outcome as OutcomeReasonRow['outcome'],
      reason: row.outcome_reason,
      leads: Number(row.leads),
    })),
  };
}

/**
 * How many leads reached each funnel position (docs/operating.md, "Reports"): a lead reached a screen when it completed
 * the one before it or any later one. Every lead reached the landing form and the first step (it was created
 * from the landing form or a deep link). So a lead that saved a step out of order (an API client, before the
 * BFF refused that) counts as having reached every screen up to its furthest, and a step's completed count is
 * never above its reached count: every lead that completed a step reached it.
 *
 * @param furthest leads by the 0-based index in FUNNEL_POSITIONS of the furthest step they completed.
 */
function reachedCounts(created: number, furthest: readonly { position: number; leads: number }[]): number[] {
  // atOrPast[i]: leads whose furthest completed position is i or later; every lead completed the landing form.
  const atOrPast = FUNNEL_POSITIONS.map(() => 0);
  for (const { position, leads } of furthest) atOrPast[position] = (atOrPast[position] ?? 0) + leads;
  for (let i = atOrPast.length - 2; i >= 0; i -= 1) atOrPast[i]! += atOrPast[i + 1]!;
  atOrPast[0] = Math.max(created, atOrPast[0]!);
  return FUNNEL_POSITIONS.map((_, i) => (i === 0 ? atOrPast[0]! : atOrPast[i - 1]!));
}

/** Submitted leads per day and affiliate: how many sold, and how long lenders took to decide. */
export async function salesReport(
  db: Kysely<Database>,
  query: ReportQuery,
  timeZone: string,
): Promise<SalesReport> {
  const day = createdDay(timeZone);
  const rows = await db
    .selectFrom('lead_summary')
    .where(matches(query, timeZone))
    .where('submitted_at', 'is not', null)
    .select((eb) => [
      sql<string>`to_char(${day}, 'YYYY-MM-DD')`.as('day'),
      'affiliate',
      eb.fn.countAll<string>().as('submitted'),
      sql<string>`count(*) filter (where outcome = 'sold')`.as('sold'),
      // Rounded here, to a tenth of a second, so no report or CSV prints binary noise (4.7780000000000005).
      sql<
        number | null
      >`round(percentile_cont(0.5) within group (order by seconds_to_decision)::numeric, 1)::float8`.as(
        'median',
      ),
      sql<
        number | null
      >`round(percentile_cont(0.9) within group (order by seconds_to_decision)::numeric, 1)::float8`.as(
        'p90',
      ),
    ])
    // By position: the day expression carries the time zone as a parameter, which PostgreSQL would not match.
    .groupBy([sql`1`, 'affiliate'])
    .orderBy(sql`1`)
    .orderBy(sql`affiliate nulls last`)
    .execute();
  return {
    filters: filtersOf(query),
    rows: rows.map((row) => {
      const submitted = Number(row.submitted);
      const sold = Number(row.sold);
      return {
        day: row.day,
        affiliate: row.affiliate,
        submitted,
        sold,
        soldRate: submitted > 0 ? sold / submitted : 0,
        medianSecondsToDecision: row.median === null ? null : Number(row.median),
        p90SecondsToDecision: row.p90 === null ? null : Number(row.p90),
      };
    }),
  };
}

/**
 * Sales by buyer: the waterfall's attempts at each buyer over the leads created in the range, with gross
 * revenue, returns, net revenue and conversions (ADR 0020), by net revenue.
 */
export async function buyerSalesReport(
  db: Kysely<Database>,
  query: ReportQuery,
  timeZone: string,
): Promise<BuyerSalesReport> {
  const [rows, figures] = await Promise.all([
    db
      .selectFrom('buyer_attempts')
      .innerJoin('lead_summary', 'lead_summary.lead_id', 'buyer_attempts.lead_id')
      .where(matches(query, timeZone))
      .select([
        'buyer_attempts.buyer',
        sql<string>`count(*) filter (where result <> 'capped')`.as('attempts'),
        sql<string>`count(*) filter (where result = 'sold')`.as('sold'),
        sql<string>`count(*) filter (where result = 'timeout')`.as('timeouts'),
        sql<string>`count(*) filter (where result = 'capped')`.as('capped'),
      ])
      .groupBy('buyer_attempts.buyer')
      .execute(),
    revenueFigures(db, query, timeZone, 'buyer'),
  ]);
  const byBuyer = new Map(figures.map(({ key, sold: _sold, payoutsReversed: _reversed, ...f }) => [key, f]));
  const none = {
    revenue: 0,
    returns: 0,
    returnedRevenue: 0,
    netRevenue: 0,
    pendingReturns: 0,
    conversions: 0,
    fundedAmount: 0,
  };
  return {
    filters: filtersOf(query),
    rows: rows
      .map((row) => {
        const attempts = Number(row.attempts);
        const sold = Number(row.sold);
        const money = byBuyer.get(row.buyer) ?? none;
        return {
          buyer: row.buyer,
          attempts,
          sold,
          acceptRate: attempts > 0 ? sold / attempts : 0,
          ...money,
          averagePrice: sold > 0 ? Math.round((money.revenue / sold) * 100) / 100 : null,
          timeouts: Number(row.timeouts),
          capped: Number(row.capped),
        };
      })
      .sort((a, b) => b.netRevenue - a.netRevenue || (a.buyer < b.buyer ? -1 : a.buyer > b.buyer ? 1 : 0)),
  };
}
