// Run after `vite build`: prints the gzip size of every JavaScript chunk and enforces three budgets:
// - the first screen (the entry, the framework, and the landing route with everything it imports) ≤ 150 kB gzip;
// - each wizard step's own lazy chunk ≤ 15 kB gzip;
// - all of the borrower app's JavaScript ≤ 300 kB gzip: the entry and every lazy route a borrower can reach.
// The operator pages (src/features/operator/, chunks named operator-*) are not the borrower's: chunks only they
// load are listed and summed on a line of their own, outside the budgets.
// Sizes are in kB of 1000 bytes, as Vite prints them.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';

const FIRST_SCREEN_LIMIT_KB = 150;
const STEP_LIMIT_KB = 15;
const ALL_JS_LIMIT_KB = 300;
/** The first screen a visitor sees (`/` redirects to `/start`). */
const FIRST_SCREEN_SOURCE = 'src/features/landing/components/landing-screen.tsx';
const STEP_SOURCE = /^src\/features\/funnel\/steps\/[a-z]+-step\.tsx$/;
const OPERATOR_SOURCE = /^src\/features\/operator\//;

const dist = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../dist');
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8'));

const gzipKb = (file) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length / 1000;
const format = (kb) => `${kb.toFixed(2).padStart(8)} kB`;

const entryKey = Object.keys(manifest).find((key) => manifest[key].isEntry);
if (!entryKey) throw new Error('The Vite manifest names no entry chunk.');
if (!manifest[FIRST_SCREEN_SOURCE]) throw new Error(`The Vite manifest has no ${FIRST_SCREEN_SOURCE}.`);

/** `start` and what it imports statically, and with `lazy` also what it imports dynamically, except `skip`. */
function reach(starts, { lazy = false, skip = () => false } = {}) {
  const seen = new Set();
  const visit = (key) => {
    if (seen.has(key) || skip(key)) return;
    seen.add(key);
    for (const imported of manifest[key].imports ?? []) visit(imported);
    if (lazy) for (const imported of manifest[key].dynamicImports ?? []) visit(imported);
  };
  starts.forEach(visit);
  return seen;
}

/** What loads before the router resolves any lazy route. */
const initial = reach([entryKey]);
/** What the first screen loads: the entry's chunks, then the landing route's chunk and its static imports. */
const firstScreen = reach([entryKey, FIRST_SCREEN_SOURCE]);
/** Everything a borrower can load: every lazy route but the operator's (and what only those import). */
const borrower = reach([entryKey], {
  lazy: true,
  skip: (key) => OPERATOR_SOURCE.test(manifest[key].src ?? ''),
});

const rows = Object.entries(manifest)
  .filter(([, chunk]) => chunk.file.endsWith('.js'))
  .map(([key, chunk]) => {
    const kind = !borrower.has(key)
      ? 'operator'
      : initial.has(key)
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
for (const row of rows) console.log(`  ${row.kind.padEnd(8)} ${format(row.kb)}  ${row.file}`);

const sum = (list) => list.reduce((total, row) => total + row.kb, 0);
const firstScreenKb = sum(rows.filter((row) => firstScreen.has(row.key)));
const borrowerKb = sum(rows.filter((row) => borrower.has(row.key)));
const operator = rows.filter((row) => !borrower.has(row.key));
const steps = rows.filter((row) => row.kind === 'step');
const largestStep = steps.reduce((max, row) => (row.kb > max.kb ? row : max), { kb: 0, file: '(none)' });

console.log('\nBudgets (gzip):');
console.log(`  First screen (entry + /start):  ${format(firstScreenKb)}  limit ${FIRST_SCREEN_LIMIT_KB} kB`);
console.log(
  `  Largest step chunk (of ${steps.length}):    ${format(largestStep.kb)}  limit ${STEP_LIMIT_KB} kB  (${largestStep.file})`,
);
console.log(`  All borrower JavaScript:        ${format(borrowerKb)}  limit ${ALL_JS_LIMIT_KB} kB`);
console.log(
  `Operator-only JavaScript (not budgeted): ${format(sum(operator))} in ${operator.length} chunk${operator.length === 1 ? '' : 's'}`,
);

const failures = [
  ...(firstScreenKb > FIRST_SCREEN_LIMIT_KB
    ? [`the first screen is ${firstScreenKb.toFixed(2)} kB gzip, over ${FIRST_SCREEN_LIMIT_KB} kB`]
    : []),
  ...(borrowerKb > ALL_JS_LIMIT_KB
    ? [`the borrower app's JavaScript is ${borrowerKb.toFixed(2)} kB gzip, over ${ALL_JS_LIMIT_KB} kB`]
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
