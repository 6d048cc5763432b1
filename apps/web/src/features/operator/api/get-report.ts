import { useEffect } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  BuyerSalesReportSchema,
  FunnelReportSchema,
  SalesReportSchema,
  type BuyerSalesReport,
  type FunnelReport,
  type SalesReport,
} from '@funnel/contracts/reports';
import { apiRequest } from '@/lib/api-client';
import { ApiRequestError } from '@/lib/api-request-error';
import { reportPath, type ReportFilters, type ReportName } from '../utils/report-filters';
import { operatorSessionKey } from './operator-session';

const REPORT_SCHEMAS = {
  funnel: FunnelReportSchema,
  sales: SalesReportSchema,
  buyers: BuyerSalesReportSchema,
} as const;
type Reports = { funnel: FunnelReport; sales: SalesReport; buyers: BuyerSalesReport };

/**
 * GET /api/v1/admin/reports/{funnel|sales|buyers} — the funnel (reached, completed and drop-off per position, and
 * the outcomes), sales (submitted, sold and decision times per day and affiliate), or sales by buyer (attempts,
 * sold, accept rate, revenue, timeouts and capped attempts).
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
  const queryClient = useQueryClient();
  const query = useQuery({
    queryKey: ['operator', 'report', report, filters],
    queryFn: ({ signal }) => getReport(report, filters, signal),
    placeholderData: keepPreviousData,
  });
  const { error } = query;
  useEffect(() => {
    if (error instanceof ApiRequestError && error.status === 401) {
      void queryClient.invalidateQueries({ queryKey: operatorSessionKey });
    }
  }, [error, queryClient]);
  return query;
}
