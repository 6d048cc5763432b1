import { useEffect, useRef, useState, type KeyboardEvent } from 'react';
import { addDays, addMonths, parseIsoDate } from '@funnel/contracts/rules/calendar-date';
import { FieldError } from '@/components/form/field-error';
import { describedBy, fieldIds } from '@/components/form/field-ids';
import { clampDate, endOfMonth, monthWeeks, startOfMonth, weekEdge } from '../utils/calendar-month';
import styles from './pay-date-calendar.module.css';

interface PayDateCalendarProps {
  id: string;
  /** The chosen day, 'YYYY-MM-DD'. */
  value: string | undefined;
  onChange: (iso: string) => void;
  /** The first and last day that may be offered. */
  first: string;
  last: string;
  isSelectable: (iso: string) => boolean;
  labelledBy: string;
  hintId?: string;
  error?: string;
}

const WEEKDAYS = [
  ['Su', 'Sunday'],
  ['Mo', 'Monday'],
  ['Tu', 'Tuesday'],
  ['We', 'Wednesday'],
  ['Th', 'Thursday'],
  ['Fr', 'Friday'],
  ['Sa', 'Saturday'],
] as const;

// Calendar dates carry no time zone: they are formatted as UTC midnights so no offset can shift the day.
const monthTitle = new Intl.DateTimeFormat('en-US', { month: 'long', year: 'numeric', timeZone: 'UTC' });
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeZone: 'UTC' });

function toUtc(iso: string): Date {
  const { year, month, day } = parseIsoDate(iso);
  return new Date(Date.UTC(year, month - 1, day));
}

/** A day as people read it: 'Friday, May 15, 2026'. */
export function formatLongDate(iso: string): string {
  return longDate.format(toUtc(iso));
}

/**
 * A month calendar for picking a pay date, following the ARIA date-picker grid pattern: one day is in the Tab
 * order, arrow keys move by day and week, Home/End to the week's edges, Page Up/Down by month, Enter or Space
 * picks. Days that cannot be picked stay reachable, so their reason can be read, but pressing them does nothing.
 */
export function PayDateCalendar({
  id,
  value,
  onChange,
  first,
  last,
  isSelectable,
  labelledBy,
  hintId,
  error,
}: PayDateCalendarProps) {
  const [focusDay, setFocusDay] = useState(() => {
    if (value && value >= first && value <= last) return value;
    let day = first;
    while (day < last && !isSelectable(day)) day = addDays(day, 1);
    return day;
  });
  const gridRef = useRef<HTMLTableElement>(null);
  const moveFocus = useRef(false);
  const ids = fieldIds(id);
  const { year, month } = parseIsoDate(focusDay);
  const monthLabelId = `${id}-month`;
  const rangeStart = startOfMonth(first);
  const rangeEnd = endOfMonth(last);

  useEffect(() => {
    if (!moveFocus.current) return;
    moveFocus.current = false;
    gridRef.current?.querySelector<HTMLButtonElement>(`[data-iso="${focusDay}"]`)?.focus();
  }, [focusDay]);

  function goTo(day: string, focus: boolean) {
    moveFocus.current = focus;
    setFocusDay(clampDate(day, rangeStart, rangeEnd));
  }

  function handleKey(event: KeyboardEvent<HTMLButtonElement>, day: string) {
    const moves: Record<string, () => string> = {
      ArrowLeft: () => addDays(day, -1),
      ArrowRight: () => addDays(day, 1),
      ArrowUp: () => addDays(day, -7),
      ArrowDown: () => addDays(day, 7),
      Home: () => weekEdge(day, 'start'),
      End: () => weekEdge(day, 'end'),
      PageUp: () => addMonths(day, -1),
      PageDown: () => addMonths(day, 1),
    };
    const move = moves[event.key];
    if (!move) return;
    event.preventDefault();
    goTo(move(), true);
  }

  return (
    <div className={styles.calendar}>
      <div className={styles.header}>
        <button
          type="button"
          className={styles.nav}
          onClick={() => goTo(startOfMonth(addMonths(focusDay, -1)), false)}
          disabled={startOfMonth(focusDay) <= rangeStart}
          aria-label="Previous month"
        >
          <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
            <path d="M12.5 4.5L7 10l5.5 5.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
          </svg>
        </button>
        <h2 id={monthLabelId} className={styles.month} aria-live="polite">
          {monthTitle.format(toUtc(focusDay))}
        </h2>
        <button
          type="button"
          className={styles.nav}
          onClick={() => goTo(startOfMonth(addMonths(focusDay, 1)), false)}
          disabled={endOfMonth(focusDay) >= rangeEnd}
          aria-label="Next month"
        >
          <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
            <path d="M7.5 4.5L13 10l-5.5 5.5" fill="none" stroke="currentColor" strokeWidth="2.2" />
          </svg>
        </button>
      </div>
      <table
        ref={gridRef}
        id={id}
        role="grid"
        className={styles.grid}
        aria-labelledby={`${labelledBy} ${monthLabelId}`}
        aria-invalid={error ? true : undefined}
        aria-describedby={describedBy(hintId, error && ids.error)}
      >
        <thead>
          <tr>
            {WEEKDAYS.map(([short, full]) => (
              <th key={full} scope="col" abbr={full} className={styles.weekday}>
                {short}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthWeeks(year, month).map((week, index) => (
            <tr key={index}>
              {week.map((day, column) => {
                if (day === null) return <td key={`empty-${column}`} className={styles.empty} />;
                const selectable = isSelectable(day);
                const selected = day === value;
                return (
                  <td key={day} aria-selected={selected}>
                    <button
                      type="button"
                      data-iso={day}
                      tabIndex={day === focusDay ? 0 : -1}
                      className={styles.day}
                      aria-disabled={selectable ? undefined : true}
                      aria-label={`${formatLongDate(day)}${selectable ? '' : ', not available'}`}
                      onClick={() => {
                        goTo(day, false);
                        if (selectable) onChange(day);
                      }}
                      onKeyDown={(event) => handleKey(event, day)}
                    >
                      {parseIsoDate(day).day}
                    </button>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
      <FieldError id={ids.error} message={error} />
    </div>
  );
}
