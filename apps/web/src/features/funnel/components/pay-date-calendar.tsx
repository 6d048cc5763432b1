import { useState } from 'react';
import { DayButton, DayPicker, type ChevronProps, type DayButtonProps } from 'react-day-picker';
import { formatIsoDate, parseIsoDate } from '@funnel/contracts/rules/calendar-date';
import { FieldError } from '@/components/form/field-error';
import { describedBy, fieldIds } from '@/components/form/field-ids';
import styles from './pay-date-calendar.module.css';

interface PayDateCalendarProps {
  id: string;
  /** The chosen day, 'YYYY-MM-DD'. */
  value: string | undefined;
  onChange: (iso: string) => void;
  /** Today, and the first and last day that may be offered. */
  today: string;
  first: string;
  last: string;
  /** Why a day cannot be picked ('a weekend'), or undefined when it can. */
  whyUnavailable: (iso: string) => string | undefined;
  labelledBy: string;
  hintId?: string;
  error?: string;
}

// Calendar dates carry no time zone: they are formatted as UTC midnights so no offset can shift the day.
const longDate = new Intl.DateTimeFormat('en-US', { dateStyle: 'full', timeZone: 'UTC' });

/** A day as people read it: 'Friday, May 15, 2026'. */
export function formatLongDate(iso: string): string {
  const { year, month, day } = parseIsoDate(iso);
  return longDate.format(new Date(Date.UTC(year, month - 1, day)));
}

/** The picker works in local midnights; these convert at its edge so the rest of the app keeps ISO dates. */
function toDate(iso: string): Date {
  const { year, month, day } = parseIsoDate(iso);
  return new Date(year, month - 1, day);
}

function toIso(date: Date): string {
  return formatIsoDate({ year: date.getFullYear(), month: date.getMonth() + 1, day: date.getDate() });
}

/**
 * The day button with its ISO date (for tests and the focus search) and `aria-current` on today. An unavailable
 * day stays a button (aria-disabled, crossed out) so a tap on it can say why it cannot be picked.
 */
function PayDayButton({ day, modifiers, ...button }: DayButtonProps) {
  return (
    <DayButton
      {...button}
      day={day}
      modifiers={modifiers}
      data-iso={toIso(day.date)}
      aria-current={modifiers.today ? 'date' : undefined}
      aria-disabled={modifiers.unavailable ? true : undefined}
    />
  );
}

function Chevron({ orientation }: ChevronProps) {
  return (
    <svg viewBox="0 0 20 20" width="20" height="20" aria-hidden="true">
      <path
        d={orientation === 'left' ? 'M12.5 4.5L7 10l5.5 5.5' : 'M7.5 4.5L13 10l-5.5 5.5'}
        fill="none"
        stroke="currentColor"
        strokeWidth="2.2"
      />
    </svg>
  );
}

/**
 * A month calendar for picking a pay date (react-day-picker, the ARIA date-picker grid): one day is in the Tab
 * order, arrow keys move by day and week, Home/End to the week's edges, Page Up/Down by month, Enter or Space
 * picks. Days `whyUnavailable` refuses are crossed out; the legend under the grid says which they are, and a
 * tap or Enter on one says why that day cannot be picked (issue 25: a tap gave no feedback).
 */
export function PayDateCalendar({
  id,
  value,
  onChange,
  today,
  first,
  last,
  whyUnavailable,
  labelledBy,
  hintId,
  error,
}: PayDateCalendarProps) {
  const ids = fieldIds(id);
  const legendId = `${id}-legend`;
  const [refused, setRefused] = useState<string>();
  const isSelectable = (iso: string) => whyUnavailable(iso) === undefined;
  const firstSelectable = (() => {
    for (let day = toDate(first); toIso(day) <= last; day.setDate(day.getDate() + 1)) {
      if (isSelectable(toIso(day))) return toIso(day);
    }
    return first;
  })();

  return (
    <div
      id={id}
      role="group"
      className={styles.calendar}
      aria-labelledby={labelledBy}
      aria-invalid={error ? true : undefined}
      aria-describedby={describedBy(hintId, legendId, error && ids.error)}
    >
      <DayPicker
        mode="single"
        selected={value ? toDate(value) : undefined}
        // Controlled: a pick goes through onDayClick, which refuses an unavailable day with its reason.
        onSelect={() => undefined}
        onDayClick={(date) => {
          const iso = toIso(date);
          const reason = whyUnavailable(iso);
          setRefused(reason && `${formatLongDate(iso)} is ${reason}, so it cannot be your pay date.`);
          if (!reason) onChange(iso);
        }}
        modifiers={{ unavailable: (date) => !isSelectable(toIso(date)) }}
        modifiersClassNames={{ unavailable: styles.disabled ?? '' }}
        today={toDate(today)}
        defaultMonth={toDate(value && value >= first && value <= last ? value : firstSelectable)}
        startMonth={toDate(first)}
        endMonth={toDate(last)}
        navLayout="around"
        components={{ DayButton: PayDayButton, Chevron }}
        labels={{
          labelPrevious: () => 'Previous month',
          labelNext: () => 'Next month',
          labelDayButton: (date, modifiers) =>
            `${formatLongDate(toIso(date))}${modifiers.today ? ', today' : ''}${modifiers.unavailable ? ', not available' : ''}`,
        }}
        classNames={{
          root: styles.root,
          months: styles.months,
          month: styles.month,
          month_caption: styles.caption,
          caption_label: styles.monthTitle,
          button_previous: styles.nav,
          button_next: styles.nav,
          month_grid: styles.grid,
          weekdays: styles.weekdays,
          weekday: styles.weekday,
          week: styles.week,
          day: styles.cell,
          day_button: styles.day,
          selected: styles.selected,
          today: styles.today,
          hidden: styles.hidden,
        }}
      />
      <p id={legendId} className={styles.legend}>
        <span className={styles.legendSwatch} aria-hidden="true">
          14
        </span>
        Crossed-out days are weekends, bank holidays or outside the next 30 days: they cannot be chosen.
      </p>
      <p className={styles.refused} aria-live="polite">
        {refused}
      </p>
      <FieldError id={ids.error} message={error} />
    </div>
  );
}
