import { sql, type Kysely } from 'kysely';
import type { ReportQuery, QualityReport, QualityRow } from '@funnel/contracts/reports';
import {
  SCREENING_BAND_FLOORS,
  SCREENING_BANDS,
  type ScreeningBand,
  type ScreeningReason,
} from '@funnel/contracts/screening';
import type { Database } from './database.js';
import { filtersOf, matches } from './report-filters.js';

/** A score's band in SQL, from the same floors as `bandOf`. */
const BAND = sql<ScreeningBand>`case ${sql.join(
  SCREENING_BANDS.map(
    (band) =>
      sql`when lead_summary.screening_score >= ${sql.lit(SCREENING_BAND_FLOORS[band])} then ${sql.lit(band)}`,
  ),
  sql` `,
)} end`;

/** An affiliate's key in a map: null (leads without one) as the empty string, which no affiliate id is. */
const keyOf = (affiliate: string | null) => affiliate ?? '';

/**
 * The quality report (issue 41) over the screened leads created in the range: per affiliate, screening's
 * verdicts and findings (from each lead's `screened` event), most flagged or blocked first; and the sold leads of
 * each band with their approved returns, so an operator sees whether the score predicts returns.
 */
export async function qualityReport(
  db: Kysely<Database>,
  query: ReportQuery,
  timeZone: string,
): Promise<QualityReport> {
  const screened = db
    .selectFrom('lead_summary')
    .where(matches(query, timeZone))
    .where('lead_summary.screening_verdict', 'is not', null);
  const [verdicts, findings, bands] = await Promise.all([
    screened
      .select([
        'lead_summary.affiliate as affiliate',
        sql<string>`count(*)`.as('screened'),
        sql<string>`count(*) filter (where screening_verdict = 'pass')`.as('passed'),
        sql<string>`count(*) filter (where screening_verdict = 'flag')`.as('flagged'),
        sql<string>`count(*) filter (where screening_verdict = 'block')`.as('blocked'),
      ])
      .groupBy('lead_summary.affiliate')
      .execute(),
    screened
      .innerJoin('lead_events', (join) =>
        join
          .onRef('lead_events.lead_id', '=', 'lead_summary.lead_id')
          .on('lead_events.type', '=', 'screened'),
      )
      // A set-returning function in FROM sees the rows before it: one row per finding of each lead.
      .crossJoin(sql`jsonb_array_elements_text(lead_events.data->'reasons')`.as('finding'))
      .select([
        'lead_summary.affiliate as affiliate',
        sql<ScreeningReason>`finding.value`.as('reason'),
        sql<string>`count(distinct lead_summary.lead_id)`.as('leads'),
      ])
      .groupBy(['lead_summary.affiliate', sql`finding.value`])
      .execute(),
    screened
      .innerJoin('buyer_attempts', (join) =>
        join
          .onRef('buyer_attempts.lead_id', '=', 'lead_summary.lead_id')
          .on('buyer_attempts.result', '=', 'sold'),
      )
      .leftJoin('sale_returns', (join) =>
        join
          .onRef('sale_returns.attempt_key', '=', 'buyer_attempts.attempt_key')
          .on('sale_returns.status', '=', 'approved'),
      )
      .select([
        BAND.as('band'),
        sql<string>`count(*)`.as('sold'),
        sql<string>`count(sale_returns.return_id)`.as('returned'),
      ])
      .groupBy(sql`1`)
      .execute(),
  ]);

  const findingsOf = new Map<string, QualityRow['findings']>();
  for (const { affiliate, reason, leads } of findings) {
    const list = findingsOf.get(keyOf(affiliate)) ?? [];
    list.push({ reason, leads: Number(leads) });
    findingsOf.set(keyOf(affiliate), list);
  }
  const rows = verdicts.map((row): QualityRow => {
    const [count, passed, flagged, blocked] = [row.screened, row.passed, row.flagged, row.blocked].map(
      Number,
    );
    return {
      affiliate: row.affiliate,
      screened: count!,
      passed: passed!,
      flagged: flagged!,
      blocked: blocked!,
      flaggedOrBlockedRate: count ? (flagged! + blocked!) / count : 0,
      findings: (findingsOf.get(keyOf(row.affiliate)) ?? []).sort(
        (a, b) => b.leads - a.leads || a.reason.localeCompare(b.reason),
      ),
    };
  });
  rows.sort(
    (a, b) =>
      b.flaggedOrBlockedRate - a.flaggedOrBlockedRate ||
      b.screened - a.screened ||
      keyOf(a.affiliate).localeCompare(keyOf(b.affiliate)),
  );
  const byBand = new Map(bands.map((row) => [row.band, row]));
  return {
    filters: filtersOf(query),
    rows,
    bands: SCREENING_BANDS.map((band) => {
      const sold = Number(byBand.get(band)?.sold ?? 0);
      const returned = Number(byBand.get(band)?.returned ?? 0);
      return { band, sold, returned, returnRate: sold ? returned / sold : 0 };
    }),
  };
}
