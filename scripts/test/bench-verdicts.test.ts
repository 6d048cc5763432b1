import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatFigure, verdictOf, type Figure } from '../../bench/lib/report.js';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench');
const line = { measure: 'm', product: '10 ms', baseline: '8 ms' };

// Verdicts are computed from a measured figure and a goal declared beside it (docs/adr/0028), never written.
describe('benchmark verdicts', () => {
  it('prints no verdict for a figure without a goal: information cannot pass', () => {
    expect(verdictOf(line, true)).toBe('–');
    expect(formatFigure(line, true)).toBe('m | 10 ms | 8 ms | – | none | –');
  });

  it('fails a figure that misses any of its goals and passes one that meets them all', () => {
    const figure = (p99: number, kept: number): Figure => ({
      ...line,
      goals: [
        { measured: p99, op: '<=', limit: 2, unit: '×' },
        { of: 'rate kept', measured: kept, op: '>=', limit: 0.95, unit: '×' },
      ],
    });
    expect(formatFigure(figure(1.9, 0.99), true)).toBe(
      'm | 10 ms | 8 ms | – | ≤ 2×, rate kept ≥ 0.95× | PASS',
    );
    expect(verdictOf(figure(2.1, 0.99), true)).toBe('FAIL');
    expect(verdictOf(figure(1.9, 0.9), true)).toBe('FAIL');
  });

  it('fails a figure that could not be measured rather than letting NaN slip past the comparison', () => {
    expect(verdictOf({ ...line, goals: [{ measured: Number.NaN, op: '<=', limit: 0 }] }, true)).toBe('FAIL');
  });

  it('shows but does not judge the goals in a smoke run', () => {
    expect(verdictOf({ ...line, goals: [{ measured: 3, op: '<=', limit: 0 }] }, false)).toBe('smoke');
  });

  it('finds no verdict written as a constant in any benchmark', () => {
    const scripts = readdirSync(benchDir).filter((name) => name.endsWith('.ts'));
    expect(scripts.length).toBeGreaterThan(5);
    for (const name of scripts) {
      expect(readFileSync(path.join(benchDir, name), 'utf8'), name).not.toMatch(/\bpass:/);
    }
  });
});
