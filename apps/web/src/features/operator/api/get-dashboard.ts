import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { ReportsDashboardSchema } from '@funnel/contracts/reports';
import { apiRequest } from '@/lib/api-client';
import { filtersToSearch, type ReportFilters } from '../utils/report-filters';
import { useSignOutOn401 } from './operator-session';

/**
 * GET /api/v1/admin/reports/dashboard — the funnel, sales, sales by buyer and revenue by affiliate over the
 * filters, in one request: one view of the dashboard is one `reports.read` entry in the audit log. A 401 signs
 * the page out.
 */
export function useDashboard(filters: ReportFilters) {
  const query = useQuery({
    queryKey: ['operator', 'dashboard', filters],
    queryFn: ({ signal }) =>
      apiRequest(`/admin/reports/dashboard?${filtersToSearch(filters)}`, ReportsDashboardSchema, { signal }),
    placeholderData: keepPreviousData,
  });
  useSignOutOn401(query.error);
  return query;
}
