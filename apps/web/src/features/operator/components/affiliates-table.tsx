import type { AffiliateRevenueReport } from '@funnel/contracts/reports';
import { formatCount, formatMoney } from '../utils/number-format';
import { ReportTable, type ReportColumn } from './report-table';
import { revenueColumns } from './revenue-columns';

type AffiliateRow = AffiliateRevenueReport['rows'][number];

/**
 * Sales by affiliate, by net revenue: the leads each affiliate sent that sold, their gross revenue, returns, net
 * revenue and conversions, and the affiliate's payouts taken back after returns.
 */
export function AffiliatesTable({ rows }: { rows: AffiliateRevenueReport['rows'] }) {
  return (
    <ReportTable
      id="affiliates-table"
      caption="Revenue by affiliate"
      columns={AFFILIATE_COLUMNS}
      rows={rows}
      rowKey={(row) => row.affiliate ?? ''}
      oneColumn
      empty="No lead was sold in this range."
    />
  );
}

const AFFILIATE_COLUMNS: readonly ReportColumn<AffiliateRow>[] = [
  { label: 'Affiliate', cell: (row) => row.affiliate ?? '(direct)', text: true },
  { label: 'Sold', cell: (row) => formatCount(row.sold) },
  ...revenueColumns<AffiliateRow>(),
  { label: 'Payouts reversed', cell: (row) => formatMoney(row.payoutsReversed) },
];
