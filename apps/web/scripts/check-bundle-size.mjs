// Run after `vite build`: prints the gzip size of every JavaScript chunk and enforces three budgets:
// - the first screen (the entry, the framework, and the landing route with everything it imports) ≤ 170 kB gzip;
// - each wizard step's own lazy chunk ≤ 15 kB gzip;
// - all JavaScript ≤ 300 kB gzip.
// Sizes are in kB of 1000 bytes, as Vite prints them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const FIRST_SCREEN_LIMIT_KB = 170;
const STEP_LIMIT_KB = 15;
const ALL_JS_LIMIT_KB = 300;
/** The first screen a visitor sees (`/` redirects to `/start`). */
const FIRST_SCREEN_SOURCE = 'src/features/landing/components/landing-screen.tsx';
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
/** What the first screen loads: the entry's chunks, then the landing route's chunk and its static imports. */
const firstScreen = new Set(initial);
const visitFirst = (key) => {
  if (firstScreen.has(key)) return;
  firstScreen.add(key);
  for (const imported of manifest[key].imports ?? []) visitFirst(imported);
};
if (!manifest[FIRST_SCREEN_SOURCE]) throw new Error(`The Vite manifest has no ${FIRST_SCREEN_SOURCE}.`);
visitFirst(FIRST_SCREEN_SOURCE);

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

const sum = (list) => list.reduce((total, row) => total + row.kb, 0);
const firstScreenKb = sum(rows.filter((row) => firstScreen.has(row.key)));
const allKb = sum(rows);
const steps = rows.filter((row) => row.kind === 'step');
const largestStep = steps.reduce((max, row) => (row.kb > max.kb ? row : max), { kb: 0, file: '(none)' });

console.log(`\nFirst screen (entry + /start): ${format(firstScreenKb)} (limit ${FIRST_SCREEN_LIMIT_KB} kB)`);
console.log(
  `Step chunks: ${steps.length}, largest ${format(largestStep.kb)} ${largestStep.file} (limit ${STEP_LIMIT_KB} kB)`,
);

console.log(`All JavaScript: ${format(allKb)} (limit ${ALL_JS_LIMIT_KB} kB)`);

const failures = [
  ...(firstScreenKb > FIRST_SCREEN_LIMIT_KB
    ? [`the first screen is ${firstScreenKb.toFixed(2)} kB gzip, over ${FIRST_SCREEN_LIMIT_KB} kB`]
    : []),
  ...(allKb > ALL_JS_LIMIT_KB
    ? [`all JavaScript is ${allKb.toFixed(2)} kB gzip, over ${ALL_JS_LIMIT_KB} kB`]
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
