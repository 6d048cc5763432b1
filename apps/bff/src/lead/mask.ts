/**
 * Shows only the last four letters or digits of a sensitive answer (decisions.md); separators are dropped so
 * the mask says nothing about the value's format.
 */
export function maskLastFour(value: string): string {
  const compact = value.replace(/[^A-Za-z0-9]/g, '');
  return '•'.repeat(Math.max(0, compact.length - 4)) + compact.slice(-4);
}
