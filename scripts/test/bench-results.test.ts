import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RESULTS_DIR } from '../../bench/lib/report.js';
import { benchScripts, readRecords, renderResults } from '../../bench/lib/results-page.js';

const benchDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../bench');
const page = readFileSync(path.join(benchDir, 'RESULTS.md'), 'utf8');
const records = readRecords(RESULTS_DIR);

/** The lines of RESULTS.md's fenced blocks: the figures it quotes. */
function quotedLines(markdown: string): string[] {
  const quoted: string[] = [];
  let inBlock = false;
  for (const line of markdown.split('\n')) {
    if (line.startsWith('```')) inBlock = !inBlock;
    else if (inBlock) quoted.push(line);
  }
  return quoted;
}

// bench/RESULTS.md quotes what benchmarks printed, never what someone wrote (issue 46).
describe('bench/RESULTS.md', () => {
  it('quotes only lines a recorded run printed', () => {
    const printed = new Set(records.flatMap((record) => record.lines));
    const unrecorded = quotedLines(page).filter((line) => !printed.has(line));
    expect(unrecorded).toEqual([]);
  });

  it('is what `npm run bench:results` writes from the records, unedited', () => {
    expect(page).toBe(renderResults(records, benchScripts(benchDir)));
  });

  it('finds a line no run printed', () => {
    const forged = `${page}\n\`\`\`\nstep save req/s | 9,999 req/s | 1 req/s | 9999× | ≥ 0.7× | PASS\n\`\`\`\n`;
    const printed = new Set(records.flatMap((record) => record.lines));
    expect(quotedLines(forged).filter((line) => !printed.has(line))).toHaveLength(1);
  });
});
