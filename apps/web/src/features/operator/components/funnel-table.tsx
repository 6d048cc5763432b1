import { FUNNEL_POSITION_LABELS, type FunnelReport } from '@funnel/contracts/reports';
import { formatCount, formatRate } from '../utils/number-format';
import { OUTCOME_LABELS, outcomeReasonLabel } from '../utils/outcome-reason-labels';
import styles from './operator.module.css';
import { ReportTable, type ReportColumn } from './report-table';

/**
 * Each position of the funnel in wizard order, by the screen's name (the CSV keeps the step id): how many leads
 * reached it, saved it, and stopped there. On a phone each row stacks its figures under its name.
 */
export function FunnelTable({ steps }: { steps: FunnelReport['steps'] }) {
  return (
    <ReportTable
      id="funnel-table"
      caption="Funnel by step"
      columns={FUNNEL_COLUMNS}
      rows={steps}
      rowKey={(row) => row.step}
    />
  );
}

const FUNNEL_COLUMNS: readonly ReportColumn<FunnelReport['steps'][number]>[] = [
  { label: 'Step', cell: (row) => FUNNEL_POSITION_LABELS[row.step] },
  { label: 'Reached', cell: (row) => formatCount(row.reached) },
  { label: 'Completed', cell: (row) => formatCount(row.completed) },
  { label: 'Drop-off', cell: (row) => formatCount(row.dropOff) },
  { label: 'Drop-off rate', cell: (row) => formatRate(row.dropOffRate) },
];

/** How the range's leads ended up. */
export function FunnelOutcomes({ outcomes }: { outcomes: FunnelReport['outcomes'] }) {
  const items = [
    ['Created', outcomes.created],
    ['Submitted', outcomes.submitted],
    ['Sold', outcomes.sold],
    ['Rejected', outcomes.rejected],
    ['No lender', outcomes.noLender],
  ] as const;
  return (
    <dl className={styles.outcomes} aria-label="Outcomes">
      {items.map(([label, value]) => (
        <div key={label} className={styles.outcome}>
          <dt>{label}</dt>
          <dd>{formatCount(value)}</dd>
        </div>
      ))}
    </dl>
  );
}

/** Why the leads that were not sold ended as they did: no buyer decided (no lender) or a buyer declined. */
export function OutcomeReasons({ reasons }: { reasons: FunnelReport['outcomeReasons'] }) {
  if (reasons.length === 0) return null;
  return (
    <ReportTable
      id="reasons-table"
      caption="Why leads were not sold"
      columns={REASON_COLUMNS}
      rows={reasons}
      rowKey={(row) => `${row.outcome}:${row.reason ?? ''}`}
      oneColumn
    />
  );
}

const REASON_COLUMNS: readonly ReportColumn<FunnelReport['outcomeReasons'][number]>[] = [
  { label: 'Outcome', cell: (row) => OUTCOME_LABELS[row.outcome] },
  { label: 'Reason', cell: (row) => outcomeReasonLabel(row.reason), text: true },
  { label: 'Leads', cell: (row) => formatCount(row.leads) },
];
