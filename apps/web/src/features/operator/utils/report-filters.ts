import type { LeadSource } from '@funnel/contracts/reports';
import { businessToday } from '@/lib/business-today';

/** What the operator filters the reports by; kept in the page's address so a view can be shared or reloaded. */
export interface ReportFilters {
  from: string;
  to: string;
  /** '' for every affiliate. */
  affiliate: string;
  /** '' for both sources. */
  source: LeadSource | '';
}

export type ReportName = 'funnel' | 'sales' | 'buyers' | 'affiliates' | 'quality';

const DEFAULT_DAYS = 30;

/** The last 30 days, today included, in the business time zone. */
export function defaultFilters(now: Date = new Date()): ReportFilters {
  const to = businessToday(now);
  const from = new Date(Date.parse(to) - (DEFAULT_DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  return { from, to, affiliate: '', source: '' };
}

export function filtersFromSearch(search: URLSearchParams, now: Date = new Date()): ReportFilters {
  const fallback = defaultFilters(now);
  const source = search.get('source');
  return {
    from: search.get('from') || fallback.from,
    to: search.get('to') || fallback.to,
    affiliate: search.get('affiliate') ?? '',
    source: source === 'funnel' || source === 'partner' ? source : '',
  };
}

/** The query string of a report request (and of the page's own address): empty filters are left out. */
export function filtersToSearch(filters: ReportFilters, format?: 'csv'): URLSearchParams {
  const search = new URLSearchParams({ from: filters.from, to: filters.to });
  if (filters.affiliate.trim()) search.set('affiliate', filters.affiliate.trim());
  if (filters.source) search.set('source', filters.source);
  if (format) search.set('format', format);
  return search;
}

/** The report's address under the API; with `csv`, the download the browser fetches with the operator cookie. */
export function reportPath(report: ReportName, filters: ReportFilters, format?: 'csv'): string {
  return `/admin/reports/${report}?${filtersToSearch(filters, format)}`;
}
