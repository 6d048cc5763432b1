import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { BenchRecord } from './report.js';

/** Every record under `dir`, by file name: `<script>.json`, and `<script>.sabotaged.json` for a bad build's run. */
export function readRecords(dir: string): BenchRecord[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()
    .map((name) => JSON.parse(readFileSync(path.join(dir, name), 'utf8')) as BenchRecord);
}

/** The benchmark scripts: every `bench/*.ts` but this page's own generator. */
export function benchScripts(benchDir: string): string[] {
  return readdirSync(benchDir)
    .filter((name) => name.endsWith('.ts') && name !== 'results.ts')
    .map((name) => name.slice(0, -'.ts'.length))
    .sort();
}

const load = (values: number[]) => values.map((v) => v.toFixed(1)).join(' / ');

function header(record: BenchRecord): string {
  const { machine } = record;
  return [
    `Commit ${record.commit}${record.dirty ? ' with uncommitted changes' : ''}, ${record.startedAt.slice(0, 16).replace('T', ' ')} UTC`,
    `${machine.cpus} × ${machine.cpuModel}, ${machine.memoryGiB} GiB, Node ${machine.node}`,
    `load average (1 / 5 / 15 min) ${load(record.loadAverage.before)} before, ${load(record.loadAverage.after)} after`,
    ...(record.seed === undefined ? [] : [`seed ${record.seed}`]),
    ...(record.args.length > 0 ? [`arguments \`${record.args.join(' ')}\``] : []),
    `exit code ${record.exitCode}`,
  ].join('; ');
}

function section(title: string, record: BenchRecord): string[] {
  return [`## ${title}`, '', `${header(record)}.`, '', '```', ...record.lines, '```', ''];
}

/**
 * bench/RESULTS.md, written from the records alone (`npm run bench:results`): each benchmark's last full run as it
 * printed it, then the runs on a deliberately bad build, then the benchmarks with no record.
 */
export function renderResults(records: BenchRecord[], scripts: string[]): string {
  const runs = records.filter((r) => !r.sabotage);
  const sabotaged = records.filter((r) => r.sabotage);
  const missing = scripts.filter((script) => !runs.some((r) => r.script === script));
  const lines = [
    '# Benchmark results',
    '',
    'Written by `npm run bench:results` from the records in [results/](results/), never by hand: each benchmark',
    'records what its last full run printed (`npm run bench -- <name>`) with the commit, the machine and its load',
    'average, and a test checks that every line below is in a record. Columns: measure | product | baseline |',
    'ratio | goal | verdict; the ratios are to a baseline measured in the same run ([README.md](README.md)). What was',
    'changed because of a figure, and the figures of sessions before records were kept, are in',
    '[HISTORY.md](HISTORY.md) and the ADRs.',
    '',
    ...runs.flatMap((record) => section(`\`${record.script}.ts\``, record)),
  ];
  if (sabotaged.length > 0) {
    lines.push(
      '# On a deliberately bad build',
      '',
      '`BENCH_SABOTAGE=<name>` feeds a benchmark the bad product its script describes; its goals must then fail,',
      'which shows they can (docs/adr/0028).',
      '',
      ...sabotaged.flatMap((record) =>
        section(`\`${record.script}.ts\`, BENCH_SABOTAGE=${record.sabotage}`, record),
      ),
    );
  }
  if (missing.length > 0) {
    lines.push(
      '# Not recorded yet',
      '',
      `No full run of ${missing.map((s) => `\`${s}.ts\``).join(', ')} has been recorded since records began: their`,
      'figures are only in HISTORY.md, as written at the time.',
      '',
    );
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
