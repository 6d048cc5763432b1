import { sql, type ExpressionBuilder, type SqlBool } from 'kysely';
import type { FunnelReport, ReportQuery } from '@funnel/contracts/reports';
import type { Database } from './database.js';

/** The day a lead belongs to: its creation, as a calendar day in the business time zone. */
export function createdDay(timeZone: string) {
  return sql<string>`(lead_summary.created_at at time zone ${timeZone})::date`;
}

/** The report's filters over `lead_summary`. */
export function matches(query: ReportQuery, timeZone: string) {
  return (eb: ExpressionBuilder<Database, 'lead_summary'>) => {
    const day = createdDay(timeZone);
    const conditions = [
      eb(sql`${day}`, '>=', sql`${query.from}::date`),
      eb(sql`${day}`, '<=', sql`${query.to}::date`),
    ];
    if (query.affiliate) conditions.push(eb('lead_summary.affiliate', '=', query.affiliate));
    if (query.utmSource) conditions.push(eb('lead_summary.utm_source', '=', query.utmSource));
    if (query.source) conditions.push(eb('lead_summary.source', '=', query.source));
    return eb.and(conditions) as unknown as ReturnType<ExpressionBuilder<Database, 'lead_summary'>['and']> &
      SqlBool;
  };
}

export function filtersOf(query: ReportQuery): FunnelReport['filters'] {
  return {
    from: query.from,
    to: query.to,
    ...(query.affiliate ? { affiliate: query.affiliate } : {}),
    ...(query.utmSource ? { utmSource: query.utmSource } : {}),
    ...(query.source ? { source: query.source } : {}),
  };
}
