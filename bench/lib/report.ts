import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { smoke } from './bench-options.js';

/**
 * A goal, declared in the benchmark beside the figure it judges and fixed before the run (docs/adr/0028): the
 * verdict is computed from `measured`, never written by hand. Changing a limit needs an ADR note first.
 */
export interface Goal {
  /** The figure judged, from this run: a ratio or difference to the same-run baseline, or a count. */
  measured: number;
  op: '<=' | '>=';
  limit: number;
  /** What follows the limit when it is printed: '×', ' ms', ' kB', or nothing for a count. */
  unit?: string;
  /** What is compared when it is not the line's main figure ("rate kept", "LCP"). */
  of?: string;
}

export interface Figure {
  measure: string;
  product: string;
  baseline: string;
  /** Product ÷ baseline, or a difference where the goal is stated as one; undefined when there is no baseline. */
  ratio?: string;
  /** Every goal must be met. None: the line is information and prints no verdict (it cannot pass). */
  goals?: Goal[];
}

export type Verdict = 'PASS' | 'FAIL' | 'smoke' | '–';

/** A figure that could not be measured (NaN) misses its goal rather than slipping past a comparison. */
export function met(goal: Goal): boolean {
  if (Number.isNaN(goal.measured)) return false;
  return goal.op === '<=' ? goal.measured <= goal.limit : goal.measured >= goal.limit;
}

/** How a goal reads in the goal column: "≤ 1.5×", "rate kept ≥ 0.95×". */
export function goalText(goal: Goal): string {
  const limit = goal.limit.toLocaleString('en-US', { maximumFractionDigits: 3 });
  return `${goal.of ? `${goal.of} ` : ''}${goal.op === '<=' ? '≤' : '≥'} ${limit}${goal.unit ?? ''}`;
}

export function verdictOf(figure: Figure, judged = !smoke): Verdict {
  if (!figure.goals?.length) return '–';
  if (!judged) return 'smoke';
  return figure.goals.every(met) ? 'PASS' : 'FAIL';
}

/** The printed line: measure | product | baseline | ratio | goal | verdict. */
export function formatFigure(figure: Figure, judged = !smoke): string {
  const goal = figure.goals?.length ? figure.goals.map(goalText).join(', ') : 'none';
  return [
    figure.measure,
    figure.product,
    figure.baseline,
    figure.ratio ?? '–',
    goal,
    verdictOf(figure, judged),
  ].join(' | ');
}

/**
 * Prints one line per figure; in smoke runs the goals are shown but not judged. A missed goal sets a failing
 * exit code. Returns whether the figure missed no goal.
 */
export function report(figure: Figure): boolean {
  printLine(formatFigure(figure));
  const verdict = verdictOf(figure);
  if (verdict === 'FAIL') process.exitCode = 1;
  return verdict !== 'FAIL';
}

/** Prints a line of a script's output that is no figure (a model's table, say) and keeps it in the run's record. */
export function printLine(line: string): void {
  console.log(line);
  recorded.lines.push(line);
}

export const fmt = {
  rate: (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`,
  ms: (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`,
  ratio: (n: number) => `${n.toFixed(2)}×`,
  mb: (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`,
  kb: (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`,
};

/**
 * What a full run of a benchmark printed, kept as it was printed: `bench/results/<script>.json` (the lines, the
 * commit, the machine, its load average before and after, the seed, the arguments). bench/RESULTS.md is written
 * from these files only (`npm run bench:results`), and a test checks every line it quotes is in one. Smoke runs
 * record nothing; `BENCH_RECORD=0` keeps a full run from replacing the record.
 */
export interface BenchRecord {
  script: string;
  commit: string;
  /** True when the checkout had changes not committed: the figures are of the commit plus those. */
  dirty: boolean;
  startedAt: string;
  endedAt: string;
  machine: { cpus: number; cpuModel: string; memoryGiB: number; node: string };
  loadAverage: { before: number[]; after: number[] };
  seed?: number | string;
  args: string[];
  sabotage?: string;
  exitCode: number;
  lines: string[];
}

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const RESULTS_DIR = path.join(ROOT, 'bench/results');

const recorded: { lines: string[]; seed?: number | string; startedAt: string; loadBefore: number[] } = {
  lines: [],
  startedAt: new Date().toISOString(),
  loadBefore: os.loadavg(),
};

/** Names the seed the run's world was drawn from, for its record. */
export function recordSeed(seed: number | string): void {
  recorded.seed = seed;
}

function git(...args: string[]): string {
  try {
    return execFileSync('git', args, {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return '';
  }
}

process.on('exit', (code) => {
  if (smoke || process.env.BENCH_RECORD === '0' || recorded.lines.length === 0) return;
  const script = path.basename(process.argv[1] ?? 'unknown', '.ts');
  const record: BenchRecord = {
    script,
    commit: git('rev-parse', '--short', 'HEAD') || 'unknown',
    dirty: git('status', '--porcelain', '--untracked-files=no') !== '',
    startedAt: recorded.startedAt,
    endedAt: new Date().toISOString(),
    machine: {
      cpus: os.cpus().length,
      cpuModel: os.cpus()[0]?.model ?? 'unknown',
      memoryGiB: Math.round(os.totalmem() / 2 ** 30),
      node: process.version,
    },
    loadAverage: { before: recorded.loadBefore, after: os.loadavg() },
    ...(recorded.seed === undefined ? {} : { seed: recorded.seed }),
    args: process.argv.slice(2),
    ...(process.env.BENCH_SABOTAGE ? { sabotage: process.env.BENCH_SABOTAGE } : {}),
    exitCode: typeof code === 'number' ? code : 0,
    lines: recorded.lines,
  };
  mkdirSync(RESULTS_DIR, { recursive: true });
  const name = record.sabotage ? `${script}.sabotaged` : script;
  writeFileSync(path.join(RESULTS_DIR, `${name}.json`), `${JSON.stringify(record, null, 2)}\n`);
});
