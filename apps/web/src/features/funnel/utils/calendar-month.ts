import {
  addDays,
  daysInMonth,
  formatIsoDate,
  parseIsoDate,
  weekday,
} from '@funnel/contracts/rules/calendar-date';

/** A month's days as Sunday-first weeks (the US convention); `null` pads the days of other months. */
export function monthWeeks(year: number, month: number): (string | null)[][] {
  const first = formatIsoDate({ year, month, day: 1 });
  const cells: (string | null)[] = Array.from({ length: weekday(first) }, () => null);
  for (let day = 1; day <= daysInMonth(year, month); day += 1)
    cells.push(formatIsoDate({ year, month, day }));
  while (cells.length % 7 !== 0) cells.push(null);
  return Array.from({ length: cells.length / 7 }, (_, week) => cells.slice(week * 7, week * 7 + 7));
}

/** The first day of the month `iso` falls in. */
export function startOfMonth(iso: string): string {
  const { year, month } = parseIsoDate(iso);
  return formatIsoDate({ year, month, day: 1 });
}

/** The last day of the month `iso` falls in. */
export function endOfMonth(iso: string): string {
  const { year, month } = parseIsoDate(iso);
  return formatIsoDate({ year, month, day: daysInMonth(year, month) });
}

/** `iso` moved into [min, max]. ISO dates order as strings. */
export function clampDate(iso: string, min: string, max: string): string {
  if (iso < min) return min;
  return iso > max ? max : iso;
}

/** The Sunday starting the week of `iso`, or the Saturday ending it. */
export function weekEdge(iso: string, edge: 'start' | 'end'): string {
  const day = weekday(iso);
  return addDays(iso, edge === 'start' ? -day : 6 - day);
}
