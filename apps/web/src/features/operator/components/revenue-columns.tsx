import type { RevenueFigures } from '@funnel/contracts/reports';
import { formatCount, formatMoney } from '../utils/number-format';
import type { ReportColumn } from './report-table';

/**
 * The money columns of the buyer and affiliate tables (ADR 0020, "Returns and conversions"): gross revenue, the
 * approved returns and what they took back, the net, the returns still waiting for an operator, and the
 * conversions buyers reported funded with their amounts.
 */
export function revenueColumns<R extends RevenueFigures>(): readonly ReportColumn<R>[] {
  return [
    { label: 'Gross revenue', cell: (row) => formatMoney(row.revenue) },
    { label: 'Returns', cell: (row) => formatCount(row.returns) },
    { label: 'Returned', cell: (row) => formatMoney(row.returnedRevenue) },
    { label: 'Net revenue', cell: (row) => formatMoney(row.netRevenue) },
    { label: 'Returns pending', cell: (row) => formatCount(row.pendingReturns) },
    { label: 'Funded', cell: (row) => formatCount(row.conversions) },
    { label: 'Funded amount', cell: (row) => formatMoney(row.fundedAmount) },
  ];
}
