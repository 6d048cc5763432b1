import { useEffect } from 'react';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  FunnelReportSchema,
  SalesReportSchema,
  type FunnelReport,
  type OperatorSession,
  type SalesReport,
} from '@funnel/contracts/reports';
import { apiRequest } from '@/lib/api-client';
import { ApiRequestError } from '@/lib/api-request-error';
import { reportPath, type ReportFilters } from '../utils/report-filters';
import { operatorSessionKey } from './operator-session';

/** GET /api/v1/admin/reports/funnel — reached, completed and drop-off per position, and the outcomes. */
export function getFunnelReport(filters: ReportFilters, signal?: AbortSignal): Promise<FunnelReport> {
  return apiRequest(reportPath('funnel', filters), FunnelReportSchema, { signal });
}

/** GET /api/v1/admin/reports/sales — submitted, sold and decision times per day and affiliate. */
export function getSalesReport(filters: ReportFilters, signal?: AbortSignal): Promise<SalesReport> {
  return apiRequest(reportPath('sales', filters), SalesReportSchema, { signal });
}

/** A 401 means the operator cookie expired (8 hours) or was cleared: the page goes back to sign-in. */
function useSignOutOnUnauthorized(error: Error | null) {
  const queryClient = useQueryClient();
  useEffect(() => {
    if (error instanceof ApiRequestError && error.status === 401) {
      queryClient.setQueryData<OperatorSession>(operatorSessionKey, { signedIn: false });
    }
  }, [error, queryClient]);
}

export function useFunnelReport(filters: ReportFilters) {
  const query = useQuery({
    queryKey: ['operator', 'report', 'funnel', filters],
    queryFn: ({ signal }) => getFunnelReport(filters, signal),
    placeholderData: keepPreviousData,
  });
  useSignOutOnUnauthorized(query.error);
  return query;
}

export function useSalesReport(filters: ReportFilters) {
  const query = useQuery({
    queryKey: ['operator', 'report', 'sales', filters],
    queryFn: ({ signal }) => getSalesReport(filters, signal),
    placeholderData: keepPreviousData,
  });
  useSignOutOnUnauthorized(query.error);
  return query;
}
