import type { SalesReport } from '@funnel/contracts/reports';
import { formatCount, formatRate, formatSeconds } from '../utils/number-format';
import { ReportTable, type ReportColumn } from './report-table';

/** Leads without an affiliate came straight to the site. */
const DIRECT = '(direct)';

/** Sales per day and affiliate: submitted, sold, sold rate, and how long lenders took to decide. */
export function SalesTable({ rows }: { rows: SalesReport['rows'] }) {
  return (
    <ReportTable
      id="sales-table"
      caption="Sales by affiliate and day"
      columns={SALES_COLUMNS}
      rows={rows}
      rowKey={(row) => `${row.day}:${row.affiliate ?? ''}`}
      oneColumn
      empty="No lead was submitted in this range."
    />
  );
}

const SALES_COLUMNS: readonly ReportColumn<SalesReport['rows'][number]>[] = [
  { label: 'Day', cell: (row) => row.day },
  { label: 'Affiliate', cell: (row) => row.affiliate ?? DIRECT, text: true },
  { label: 'Submitted', cell: (row) => formatCount(row.submitted) },
  { label: 'Sold', cell: (row) => formatCount(row.sold) },
  { label: 'Sold rate', cell: (row) => formatRate(row.soldRate) },
  { label: 'Median to decision', cell: (row) => formatSeconds(row.medianSecondsToDecision) },
  { label: 'p90 to decision', cell: (row) => formatSeconds(row.p90SecondsToDecision) },
];
