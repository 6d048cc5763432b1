import type { BuyerSalesReport } from '@funnel/contracts/reports';
import { formatCount, formatMoney, formatRate } from '../utils/number-format';
import { ReportTable, type ReportColumn } from './report-table';
import { revenueColumns } from './revenue-columns';

/**
 * Sales by buyer, by net revenue: the waterfall's attempts at each buyer, how many it bought and at what price,
 * its timeouts, the attempts its full cap kept from it (not counted as attempts), then its gross revenue,
 * returns, net revenue and conversions.
 */
export function BuyersTable({ rows }: { rows: BuyerSalesReport['rows'] }) {
  return (
    <ReportTable
      id="buyers-table"
      caption="Sales by buyer"
      columns={BUYER_COLUMNS}
      rows={rows}
      rowKey={(row) => row.buyer}
      oneColumn
      empty="No lead was offered to a buyer in this range."
    />
  );
}

type BuyerRow = BuyerSalesReport['rows'][number];

const BUYER_COLUMNS: readonly ReportColumn<BuyerRow>[] = [
  { label: 'Buyer', cell: (row) => row.buyer },
  { label: 'Attempts', cell: (row) => formatCount(row.attempts) },
  { label: 'Sold', cell: (row) => formatCount(row.sold) },
  { label: 'Accept rate', cell: (row) => formatRate(row.acceptRate) },
  { label: 'Average price', cell: (row) => formatMoney(row.averagePrice) },
  { label: 'Timeouts', cell: (row) => formatCount(row.timeouts) },
  { label: 'Capped', cell: (row) => formatCount(row.capped) },
  ...revenueColumns<BuyerRow>(),
];
