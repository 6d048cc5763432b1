// Run after `vite build`: prints the gzip size of every JavaScript chunk and fails when the entry (everything the
// first page load needs before any route code: the framework included) exceeds 170 kB gzip, or when any wizard
// step's own lazy chunk exceeds 15 kB gzip. Sizes are in kB of 1000 bytes, as Vite prints them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const ENTRY_LIMIT_KB = 170;
const STEP_LIMIT_KB = 15;
const STEP_SOURCE = /^src\/features\/funnel\/steps\/[a-z]+-step\.tsx$/;

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

const gzipKb = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1000;
const format = (kb) => `${kb.toFixed(2).padStart(8)} kB`;

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('The Vite manifest names no entry chunk.');

/** The entry and every chunk it imports statically: what loads before the router resolves any lazy route. */
const initial = new Set();
const visit = (key) => {
  if (initial.has(key)) return;
  initial.add(key);
  for (const imported of manifest[key].imports ?? []) visit(imported);
};
visit(entryKey);

const rows = Object.entries(manifest)
  .filter(([, chunk]) => chunk.file.endsWith('.js'))
  .map(([key, chunk]) => {
    const kind = initial.has(key)
      ? 'entry'
      : STEP_SOURCE.test(chunk.src ?? '')
        ? 'step'
        : chunk.isDynamicEntry
          ? 'route'
          : 'shared';
    return { key, file: chunk.file, kind, kb: gzipKb(chunk.file) };
  })
  .sort((a, b) => a.kind.localeCompare(b.kind) || b.kb - a.kb);

console.log('\nJavaScript chunks (gzip):');
for (const row of rows) console.log(`  ${row.kind.padEnd(6)} ${format(row.kb)}  ${row.file}`);

const entryKb = rows.filter((row) => row.kind === 'entry').reduce((sum, row) => sum + row.kb, 0);
const steps = rows.filter((row) => row.kind === 'step');
const largestStep = steps.reduce((max, row) => (row.kb > max.kb ? row : max), { kb: 0, file: '(none)' });

console.log(`\nEntry, framework included: ${format(entryKb)} (limit ${ENTRY_LIMIT_KB} kB)`);
console.log(
  `Step chunks: ${steps.length}, largest ${format(largestStep.kb)} ${largestStep.file} (limit ${STEP_LIMIT_KB} kB)`,
);

const failures = [
  ...(entryKb > ENTRY_LIMIT_KB
    ? [`the entry is ${entryKb.toFixed(2)} kB gzip, over ${ENTRY_LIMIT_KB} kB`]
    : []),
  ...steps
    .filter((row) => row.kb > STEP_LIMIT_KB)
    .map((row) => `step chunk ${row.file} is ${row.kb.toFixed(2)} kB gzip, over ${STEP_LIMIT_KB} kB`),
];
if (steps.length === 0) failures.push('no step chunks found: are the wizard steps still lazy routes?');
if (failures.length > 0) {
  for (const failure of failures) console.error(`✖ Bundle budget: ${failure}`);
  process.exit(1);
}
console.log('✔ Bundle budgets met.\n');
