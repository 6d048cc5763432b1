import type { QualityReport } from '@funnel/contracts/reports';
import { SCREENING_BAND_FLOORS, SCREENING_BANDS } from '@funnel/contracts/screening';
import { SCREENING_REASON_WORDS } from '../utils/journey-lines';
import { formatCount, formatRate } from '../utils/number-format';
import { ReportTable, type ReportColumn } from './report-table';

type QualityRow = QualityReport['rows'][number];
type BandRow = QualityReport['bands'][number];

/**
 * The affiliate quality report (issue 41): each affiliate's screened leads, what screening passed, flagged and
 * blocked, and what it found, most flagged or blocked first; then the sold leads of each band and their returns.
 */
export function QualityTables({ report }: { report: QualityReport }) {
  return (
    <>
      <ReportTable
        id="quality-table"
        caption="Screening by affiliate"
        columns={QUALITY_COLUMNS}
        rows={report.rows}
        rowKey={(row) => row.affiliate ?? ''}
        empty="No lead was screened in this range."
      />
      <ReportTable
        id="bands-table"
        caption="Returns by screening band"
        columns={BAND_COLUMNS}
        rows={report.bands}
        rowKey={(row) => row.band}
        oneColumn
        empty="No lead was sold in this range."
      />
    </>
  );
}

const QUALITY_COLUMNS: readonly ReportColumn<QualityRow>[] = [
  { label: 'Affiliate', cell: (row) => row.affiliate ?? '(direct)', text: true },
  { label: 'Screened', cell: (row) => formatCount(row.screened) },
  { label: 'Passed', cell: (row) => formatCount(row.passed) },
  { label: 'Flagged', cell: (row) => formatCount(row.flagged) },
  { label: 'Blocked', cell: (row) => formatCount(row.blocked) },
  { label: 'Flagged or blocked', cell: (row) => formatRate(row.flaggedOrBlockedRate) },
  {
    label: 'Findings',
    cell: (row) =>
      row.findings.map((f) => `${SCREENING_REASON_WORDS[f.reason]}: ${formatCount(f.leads)}`).join('; ') ||
      '—',
    text: true,
  },
];

/** A band with its scores: `A (score 90–100)`, `B (70–89)`, …, from the floors `bandOf` reads. */
function bandLabel(band: BandRow['band']): string {
  const index = SCREENING_BANDS.indexOf(band);
  const floor = SCREENING_BAND_FLOORS[band];
  const above = SCREENING_BANDS[index - 1];
  const top = above === undefined ? 100 : SCREENING_BAND_FLOORS[above] - 1;
  return `${band} (${index === 0 ? 'score ' : ''}${floor}–${top})`;
}

const BAND_COLUMNS: readonly ReportColumn<BandRow>[] = [
  { label: 'Band', cell: (row) => bandLabel(row.band), text: true },
  { label: 'Sold', cell: (row) => formatCount(row.sold) },
  { label: 'Returned', cell: (row) => formatCount(row.returned) },
  { label: 'Return rate', cell: (row) => formatRate(row.returnRate) },
];
