import type { SalesReport } from '@funnel/contracts/reports';
import { formatCount, formatRate, formatSeconds } from '../utils/number-format';
import styles from './operator.module.css';

/** Leads without an affiliate came straight to the site. */
const DIRECT = '(direct)';

/** Sales per day and affiliate: submitted, sold, sold rate, and how long lenders took to decide. */
export function SalesTable({ rows }: { rows: SalesReport['rows'] }) {
  return (
    <div className={styles.tableScroll} role="region" aria-labelledby="sales-table-caption" tabIndex={0}>
      <table className={`${styles.table} ${styles.stacked} ${styles.oneColumn}`}>
        <caption id="sales-table-caption">Sales by affiliate and day</caption>
        <thead>
          <tr>
            <th scope="col">Day</th>
            <th scope="col" className={styles.text}>
              Affiliate
            </th>
            <th scope="col">Submitted</th>
            <th scope="col">Sold</th>
            <th scope="col">Sold rate</th>
            <th scope="col">Median to decision</th>
            <th scope="col">p90 to decision</th>
          </tr>
        </thead>
        <tbody>
          {rows.length === 0 ? (
            <tr>
              <td colSpan={7} className={styles.empty}>
                No lead was submitted in this range.
              </td>
            </tr>
          ) : (
            rows.map((row) => (
              <tr key={`${row.day}:${row.affiliate ?? ''}`}>
                <th scope="row">{row.day}</th>
                <td className={styles.text} data-label="Affiliate">
                  {row.affiliate ?? DIRECT}
                </td>
                <td data-label="Submitted">{formatCount(row.submitted)}</td>
                <td data-label="Sold">{formatCount(row.sold)}</td>
                <td data-label="Sold rate">{formatRate(row.soldRate)}</td>
                <td data-label="Median to decision">{formatSeconds(row.medianSecondsToDecision)}</td>
                <td data-label="p90 to decision">{formatSeconds(row.p90SecondsToDecision)}</td>
              </tr>
            ))
          )}
        </tbody>
      </table>
    </div>
  );
}
