import { smoke } from './bench-options.js';

export interface Figure {
  measure: string;
  product: string;
  baseline: string;
  /** Product ÷ baseline, or a difference where the goal is stated as one; undefined when there is no baseline. */
  ratio?: string;
  goal: string;
  pass: boolean;
}

/** Prints one line per figure; in smoke runs the goal is shown but not judged. Returns whether it passed. */
export function report(figure: Figure): boolean {
  const verdict = smoke ? 'smoke' : figure.pass ? 'PASS' : 'FAIL';
  console.log(
    [figure.measure, figure.product, figure.baseline, figure.ratio ?? '–', figure.goal, verdict].join(' | '),
  );
  if (!smoke && !figure.pass) process.exitCode = 1;
  return figure.pass;
}

export const fmt = {
  rate: (n: number) => `${Math.round(n).toLocaleString('en-US')} req/s`,
  ms: (n: number) => `${n.toFixed(n < 10 ? 1 : 0)} ms`,
  ratio: (n: number) => `${n.toFixed(2)}×`,
  mb: (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MB`,
  kb: (bytes: number) => `${(bytes / 1000).toFixed(1)} kB`,
};
