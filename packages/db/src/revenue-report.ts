import { sql, type Kysely } from 'kysely';
import type { AffiliateRevenueReport, ReportQuery, RevenueFigures } from '@funnel/contracts/reports';
import type { Database } from './database.js';
import { filtersOf, matches } from './report-filters.js';

/** Cents, so no report prints binary noise (62.499999…). */
function money(value: unknown): number {
  return Math.round(Number(value ?? 0) * 100) / 100;
}

/**
 * The sales of the leads created in the range, with their returns, conversions and payout reversals, summed
 * per `by` (ADR 0020, "Returns and conversions"). Each sale joins at most one open return (a sale is returned
 * once; refused returns are left out; a reversed one joins but counts nowhere), one conversion and its lead's net
 * payout reversal, so no figure counts twice.
 */
export async function revenueFigures(
  db: Kysely<Database>,
  query: ReportQuery,
  timeZone: string,
  by: 'buyer' | 'affiliate',
): Promise<Array<RevenueFigures & { key: string | null; sold: number; payoutsReversed: number }>> {
  const key = by === 'buyer' ? sql.ref('buyer_attempts.buyer') : sql.ref('lead_summary.affiliate');
  const rows = await db
    .selectFrom('buyer_attempts')
    .innerJoin('lead_summary', 'lead_summary.lead_id', 'buyer_attempts.lead_id')
    .leftJoin('sale_returns', (join) =>
      join
        .onRef('sale_returns.attempt_key', '=', 'buyer_attempts.attempt_key')
        .on('sale_returns.status', '<>', 'rejected'),
    )
    .leftJoin('sale_conversions', 'sale_conversions.attempt_key', 'buyer_attempts.attempt_key')
    // A lead's payout reversal, less its restoration when a manager reversed the return (ADR 0021): one row per
    // lead, so the join adds no rows.
    .leftJoin(
      (qb) =>
        qb
          .selectFrom('lead_events')
          .where('type', 'in', ['payout_reversed', 'payout_restored'])
          .select([
            'lead_id',
            sql<string>`sum(case type when 'payout_reversed' then 1 else -1 end * (data->>'amount')::numeric)`.as(
              'amount',
            ),
          ])
          .groupBy('lead_id')
          .as('payouts'),
      (join) => join.onRef('payouts.lead_id', '=', 'buyer_attempts.lead_id'),
    )
    .where('buyer_attempts.result', '=', 'sold')
    .where(matches(query, timeZone))
    .select([
      sql<string | null>`${key}`.as('key'),
      sql<string>`count(*)`.as('sold'),
      sql<string>`coalesce(sum(buyer_attempts.price), 0)`.as('revenue'),
      sql<string>`count(*) filter (where sale_returns.status = 'approved')`.as('returns'),
      sql<string>`coalesce(sum(sale_returns.price) filter (where sale_returns.status = 'approved'), 0)`.as(
        'returned',
      ),
      sql<string>`count(*) filter (where sale_returns.status = 'pending')`.as('pending'),
      sql<string>`count(*) filter (where sale_conversions.funded)`.as('conversions'),
      sql<string>`coalesce(sum(sale_conversions.amount) filter (where sale_conversions.funded), 0)`.as(
        'funded',
      ),
      sql<string>`coalesce(sum(payouts.amount), 0)`.as('reversed'),
    ])
    .groupBy(sql`1`)
    .execute();
  return rows.map((row) => {
    const revenue = money(row.revenue);
    const returnedRevenue = money(row.returned);
    return {
      key: row.key,
      sold: Number(row.sold),
      revenue,
      returns: Number(row.returns),
      returnedRevenue,
      netRevenue: money(revenue - returnedRevenue),
      pendingReturns: Number(row.pending),
      conversions: Number(row.conversions),
      fundedAmount: money(row.funded),
      payoutsReversed: money(row.reversed),
    };
  });
}

/** Gross revenue, returns, net revenue and conversions per affiliate, by net revenue (highest first). */
export async function affiliateRevenueReport(
  db: Kysely<Database>,
  query: ReportQuery,
  timeZone: string,
): Promise<AffiliateRevenueReport> {
  const rows = await revenueFigures(db, query, timeZone, 'affiliate');
  return {
    filters: filtersOf(query),
    rows: rows
      .map(({ key, ...figures }) => ({ affiliate: key, ...figures }))
      .sort(
        (a, b) =>
          b.netRevenue - a.netRevenue || (a.affiliate ?? '\uffff').localeCompare(b.affiliate ?? '\uffff'),
      ),
  };
}
