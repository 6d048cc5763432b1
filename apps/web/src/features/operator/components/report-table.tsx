import { useRef, type ReactNode } from 'react';
import { useHorizontalOverflow } from '@/hooks/use-horizontal-overflow';
import styles from './report-table.module.css';

/** One column of a report table: its header, its cell for a row, and whether it holds text (left-aligned). */
export interface ReportColumn<R> {
  label: string;
  cell: (row: R) => ReactNode;
  text?: boolean;
}

interface ReportTableProps<R> {
  /** Names the caption (`<id>-caption`), which labels the scrolling region. */
  id: string;
  caption: string;
  /** The first column heads each row; on a phone a row stacks its other cells under it, labelled. */
  columns: readonly ReportColumn<R>[];
  rows: readonly R[];
  rowKey: (row: R) => string;
  /** On a phone, the stacked cells take one column rather than two. */
  oneColumn?: boolean;
  /** Shown across the table when there is no row. */
  empty?: ReactNode;
}

/**
 * A report's table, in a region that scrolls sideways (and can be focused to scroll by keyboard); when the table
 * is wider than its box, a line above it says so and describes the region, and a shadow marks the cut edge.
 */
export function ReportTable<R>({
  id,
  caption,
  columns,
  rows,
  rowKey,
  oneColumn = false,
  empty,
}: ReportTableProps<R>) {
  const [head, ...rest] = columns;
  const textClass = (column: ReportColumn<R>) => (column.text ? styles.text : undefined);
  const box = useRef<HTMLDivElement>(null);
  const overflowing = useHorizontalOverflow(box);
  return (
    <>
      {overflowing && (
        <p id={`${id}-scroll-hint`} className={styles.scrollHint}>
          Scroll sideways for all {columns.length} columns: swipe, or select the table and use the arrow keys.
        </p>
      )}
      <div
        ref={box}
        className={styles.tableScroll}
        role="region"
        aria-labelledby={`${id}-caption`}
        aria-describedby={overflowing ? `${id}-scroll-hint` : undefined}
        tabIndex={0}
      >
        <table className={`${styles.table} ${styles.stacked}${oneColumn ? ` ${styles.oneColumn}` : ''}`}>
          <caption id={`${id}-caption`}>{caption}</caption>
          <thead>
            <tr>
              {columns.map((column) => (
                <th key={column.label} scope="col" className={textClass(column)}>
                  {column.label}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {rows.length === 0 && empty !== undefined ? (
              <tr>
                <td colSpan={columns.length} className={styles.empty}>
                  {empty}
                </td>
              </tr>
            ) : (
              rows.map((row) => (
                <tr key={rowKey(row)}>
                  {head && <th scope="row">{head.cell(row)}</th>}
                  {rest.map((column) => (
                    <td key={column.label} className={textClass(column)} data-label={column.label}>
                      {column.cell(row)}
                    </td>
                  ))}
                </tr>
              ))
            )}
          </tbody>
        </table>
      </div>
    </>
  );
}
