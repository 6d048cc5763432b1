// What the browser downloads, from the production build's Vite manifest (gzip level 9, kB of 1,000 bytes as Vite prints them):
// the first screen (/start: the entry, the landing route and everything they import statically), the largest
// wizard step's own chunk, and all of the borrower's JavaScript (the operator page's `operator-*` chunks, which no
// borrower route loads, are printed apart) and all CSS.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { sabotaged } from './lib/bench-options.js';
import { REPO_ROOT } from './lib/processes.js';
import { fmt, report } from './lib/report.js';

/**
 * BENCH_SABOTAGE=bundle measures a build of the web app made without minification (`vite build --minify false`,
 * into a temporary folder): a bad build whose first screen and borrower JS pass their budgets.
 */
function unminifiedBuild(): string {
  const outDir = mkdtempSync(path.join(tmpdir(), 'bench-bundle-'));
  const built = spawnSync(
    'npx',
    ['vite', 'build', '--minify', 'false', '--outDir', outDir, '--emptyOutDir'],
    {
      cwd: path.join(REPO_ROOT, 'apps/web'),
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  process.on('exit', () => rmSync(outDir, { recursive: true, force: true }));
  if (built.status !== 0) throw new Error(`vite build --minify false exited ${built.status}`);
  return outDir;
}

const dist = sabotaged('bundle') ? unminifiedBuild() : path.join(REPO_ROOT, 'apps/web/dist');
interface Chunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  imports?: string[];
}
const manifest = JSON.parse(readFileSync(path.join(dist, '.vite/manifest.json'), 'utf8')) as Record<
  string,
  Chunk
>;
const gzip = (file: string) => gzipSync(readFileSync(path.join(dist, file)), { level: 9 }).length;

function staticClosure(keys: string[]): Set<string> {
  const seen = new Set<string>();
  const stack = [...keys];
  while (stack.length > 0) {
    const key = stack.pop()!;
    if (seen.has(key) || !manifest[key]) continue;
    seen.add(key);
    stack.push(...(manifest[key].imports ?? []));
  }
  return seen;
}

const entry = Object.keys(manifest).find((key) => manifest[key]!.isEntry);
const landing = Object.keys(manifest).find((key) => key.includes('features/landing/'));
if (!entry || !landing) throw new Error('the manifest names no entry or no landing screen');
const firstScreen = [...staticClosure([entry, landing])]
  .map((key) => manifest[key]!.file)
  .filter((file) => file.endsWith('.js'))
  .reduce((sum, file) => sum + gzip(file), 0);

const steps = Object.values(manifest).filter((chunk) =>
  /^src\/features\/funnel\/steps\/[a-z]+-step\.tsx$/.test(chunk.src ?? ''),
);
const largestStep = Math.max(...steps.map((chunk) => gzip(chunk.file)));
const assets = readdirSync(path.join(dist, 'assets')).map((file) => `assets/${file}`);
const sum = (ext: string) => assets.filter((f) => f.endsWith(ext)).reduce((total, f) => total + gzip(f), 0);
/** The operator page's chunks (apps/web/vite.config.ts names them): never loaded by a borrower. */
const isOperatorChunk = (file: string) => file.startsWith('assets/operator-');
const jsOf = (files: string[]) =>
  files.filter((f) => f.endsWith('.js')).reduce((total, f) => total + gzip(f), 0);
const allJs = jsOf(assets.filter((f) => !isOperatorChunk(f)));
const operatorJs = jsOf(assets.filter(isOperatorChunk));
const allCss = sum('.css');

const KB = 1000;
// Issue 26's goal, which the build's own check (apps/web/scripts/check-bundle-size.mjs) enforces too.
report({
  measure: 'first screen JS (/start, gzip)',
  product: fmt.kb(firstScreen),
  baseline: '–',
  goals: [{ measured: firstScreen / KB, op: '<=', limit: 150, unit: ' kB' }],
});
report({
  measure: `largest step chunk (${steps.length} steps, gzip)`,
  product: fmt.kb(largestStep),
  baseline: '–',
  goals: [
    { measured: largestStep / KB, op: '<=', limit: 15, unit: ' kB' },
    { of: 'step chunks', measured: steps.length, op: '>=', limit: 1 },
  ],
});
report({
  measure: 'all borrower JS (gzip)',
  product: fmt.kb(allJs),
  baseline: '–',
  goals: [{ measured: allJs / KB, op: '<=', limit: 300, unit: ' kB' }],
});
report({
  measure: 'operator page JS, information (gzip)',
  product: fmt.kb(operatorJs),
  baseline: '–',
});
report({
  measure: 'all CSS (gzip)',
  product: fmt.kb(allCss),
  baseline: '–',
  goals: [{ measured: allCss / KB, op: '<=', limit: 30, unit: ' kB' }],
});
