import { keepPreviousData, useQuery } from '@tanstack/react-query';
import {
  AffiliateRevenueReportSchema,
  BuyerSalesReportSchema,
  FunnelReportSchema,
  QualityReportSchema,
  SalesReportSchema,
  type AffiliateRevenueReport,
  type BuyerSalesReport,
  type FunnelReport,
  type QualityReport,
  type SalesReport,
} from '@funnel/contracts/reports';
import { apiRequest } from '@/lib/api-client';
import { reportPath, type ReportFilters, type ReportName } from '../utils/report-filters';
import { useSignOutOn401 } from './operator-session';

const REPORT_SCHEMAS = {
  funnel: FunnelReportSchema,
  sales: SalesReportSchema,
  buyers: BuyerSalesReportSchema,
  affiliates: AffiliateRevenueReportSchema,
  quality: QualityReportSchema,
} as const;
type Reports = {
  funnel: FunnelReport;
  sales: SalesReport;
  buyers: BuyerSalesReport;
  affiliates: AffiliateRevenueReport;
  quality: QualityReport;
};

/**
 * GET /api/v1/admin/reports/{funnel|sales|buyers|affiliates|quality} — the funnel (reached, completed and drop-off per
 * position, and the outcomes), sales (submitted, sold and decision times per day and affiliate), sales by buyer
 * (attempts, sold, accept rate, timeouts, capped attempts, and the revenue figures), or revenue by affiliate
 * (gross revenue, returns, net revenue, conversions and payouts reversed), or lead quality (screening's verdicts
 * and findings by affiliate, and returns by screening band).
 */
export function getReport<R extends ReportName>(
  report: R,
  filters: ReportFilters,
  signal?: AbortSignal,
): Promise<Reports[R]> {
  return apiRequest(reportPath(report, filters), REPORT_SCHEMAS[report], { signal }) as Promise<Reports[R]>;
}

/** A report for the filters; a 401 (the session ended: idle, 8 hours old, signed out everywhere, or the account disabled) signs the page out. */
export function useReport<R extends ReportName>(report: R, filters: ReportFilters) {
  const query = useQuery({
    queryKey: ['operator', 'report', report, filters],
    queryFn: ({ signal }) => getReport(report, filters, signal),
    placeholderData: keepPreviousData,
  });
  useSignOutOn401(query.error);
  return query;
}
