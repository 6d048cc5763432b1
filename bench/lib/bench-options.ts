import path from 'node:path';

/**
 * How long and how often each benchmark measures. `--smoke` (or BENCH_SMOKE=1) runs every script for a few
 * seconds with no goal checked: CI runs it so the benchmarks cannot rot; the numbers mean nothing.
 */
export const smoke = process.argv.includes('--smoke') || process.env.BENCH_SMOKE === '1';

/** A/B rounds per figure: the figure is the median of the rounds. */
export const rounds = smoke ? 1 : 3;

/** Seconds of load per autocannon run. */
export const loadSeconds = smoke ? 1 : 8;

/**
 * `BENCH_SABOTAGE=<script name>` feeds that script a deliberately bad product (each script says which): its
 * goals must then fail, which shows they can (docs/adr/0028). Read only here, in bench/, never by an app.
 */
export const sabotaged = (script: string): boolean => process.env.BENCH_SABOTAGE === script;

/** The benchmark this process runs (its file name without `.ts`). */
const runningScript = path.basename(process.argv[1] ?? '', '.ts');

/**
 * Scripts whose bad build is a slow one: their BFF and workers run with V8's JIT off (`--jitless`), several times
 * slower at everything they compute, while the baselines they are compared with run as usual.
 */
const SLOW_BUILD = new Set(['step-save', 'poll-lateness']);

/** The Node flags the product's processes get: `--jitless` when this script runs on its slow bad build. */
export function productNodeFlags(): string[] {
  return SLOW_BUILD.has(runningScript) && sabotaged(runningScript) ? ['--jitless'] : [];
}

/**
 * The seed a script's simulated world is drawn from: `--seed=<n>` on the command line, else the script's own
 * default. The script prints it and its record names it (report.ts), so any run can be repeated.
 */
export function benchSeed(fallback: number): number {
  const arg = process.argv.find((a) => a.startsWith('--seed='))?.slice('--seed='.length);
  if (arg === undefined) return fallback;
  const seed = Number(arg);
  if (!Number.isSafeInteger(seed)) throw new Error(`--seed wants an integer, not ${arg}`);
  return seed;
}
