/** The median of a list; NaN for an empty one (see {@link percentile}). */
export function median(values: readonly number[]): number {
  return percentile(values, 50);
}

/**
 * The p-th percentile (nearest rank) of a list. An empty list (nothing measured: a bad build that never got that
 * far) gives NaN, which fails every goal it reaches (lib/report.ts) instead of ending the run without a verdict.
 */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return Number.NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank]!;
}
