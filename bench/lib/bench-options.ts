/**
 * How long and how often each benchmark measures. `--smoke` (or BENCH_SMOKE=1) runs every script for a few
 * seconds with no goal checked: CI runs it so the benchmarks cannot rot; the numbers mean nothing.
 */
export const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';

/** A/B rounds per figure: the figure is the median of the rounds. */
export const rounds = smoke ? 1 : 3;

/** Seconds of load per autocannon run. */
export const loadSeconds = smoke ? 1 : 8;
