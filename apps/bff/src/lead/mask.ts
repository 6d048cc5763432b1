import type { SensitiveClientField } from '@funnel/contracts/fields';

/** What a masked answer shows of the birth date: that it is on file, never a digit of it. */
export const ON_FILE = 'on file';

/**
 * A sensitive answer as the API shows it (docs/product-rules.md §sensitive-data): a fixed-width prefix and the last four letters or digits
 * (`•••• 6789`), so the mask tells neither the value's length nor its format. A value too short to keep four
 * hidden shows at most half of itself. The birth date shows none of its digits.
 */
export function maskSensitive(field: SensitiveClientField, value: string): string {
  if (field === 'dob') return ON_FILE;
  const compact = value.replace(/[^A-Za-z0-9]/g, '');
  const shown = Math.min(4, Math.floor(compact.length / 2));
  return `•••• ${compact.slice(compact.length - shown)}`;
}
