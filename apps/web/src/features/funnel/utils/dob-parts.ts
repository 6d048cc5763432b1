import { DOB_DAY_REQUIRED } from '@funnel/contracts/messages';
import { dobDayOptions } from '@funnel/contracts/options';

/** The three date-of-birth selects as they hold their values ('' while not chosen). */
export interface DobParts {
  month: string;
  day: string;
  year: string;
}

/**
 * The day once the month or the year changed. A day the new month and year still have stays; one they lack
 * (Feb 29 once a common year is chosen, the 31st once April is) is cleared and the visitor told to choose again
 * (docs/product-rules.md §date-of-birth), never blanked silently. Without a month there is no day list, so the day goes quietly.
 */
export function reconcileDay({ month, day, year }: DobParts): { day: string; error?: string } {
  if (!day) return { day };
  if (!month) return { day: '' };
  const days = dobDayOptions(Number(month), year ? Number(year) : undefined).length;
  return Number(day) <= days ? { day } : { day: '', error: DOB_DAY_REQUIRED };
}
