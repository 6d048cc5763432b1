import { FUNNEL_POSITION_LABELS, type FunnelReport } from '@funnel/contracts/reports';
import { formatCount, formatRate } from '../utils/number-format';
import { OUTCOME_LABELS, outcomeReasonLabel } from '../utils/outcome-reason-labels';
import styles from './operator.module.css';

/**
 * Each position of the funnel in wizard order, by the screen's name (the CSV keeps the step id): how many leads
 * reached it, saved it, and stopped there. On a phone each row stacks its figures under its name.
 */
export function FunnelTable({ steps }: { steps: FunnelReport['steps'] }) {
  return (
    <div className={styles.tableScroll} role="region" aria-labelledby="funnel-table-caption" tabIndex={0}>
      <table className={`${styles.table} ${styles.stacked}`}>
        <caption id="funnel-table-caption">Funnel by step</caption>
        <thead>
          <tr>
            <th scope="col">Step</th>
            <th scope="col">Reached</th>
            <th scope="col">Completed</th>
            <th scope="col">Drop-off</th>
            <th scope="col">Drop-off rate</th>
          </tr>
        </thead>
        <tbody>
          {steps.map((row) => (
            <tr key={row.step}>
              <th scope="row">{FUNNEL_POSITION_LABELS[row.step]}</th>
              <td data-label="Reached">{formatCount(row.reached)}</td>
              <td data-label="Completed">{formatCount(row.completed)}</td>
              <td data-label="Drop-off">{formatCount(row.dropOff)}</td>
              <td data-label="Drop-off rate">{formatRate(row.dropOffRate)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

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
    <div className={styles.tableScroll} role="region" aria-labelledby="reasons-table-caption" tabIndex={0}>
      <table className={`${styles.table} ${styles.stacked} ${styles.oneColumn}`}>
        <caption id="reasons-table-caption">Why leads were not sold</caption>
        <thead>
          <tr>
            <th scope="col">Outcome</th>
            <th scope="col" className={styles.text}>
              Reason
            </th>
            <th scope="col">Leads</th>
          </tr>
        </thead>
        <tbody>
          {reasons.map((row) => (
            <tr key={`${row.outcome}:${row.reason ?? ''}`}>
              <th scope="row">{OUTCOME_LABELS[row.outcome]}</th>
              <td className={styles.text} data-label="Reason">
                {outcomeReasonLabel(row.reason)}
              </td>
              <td data-label="Leads">{formatCount(row.leads)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
