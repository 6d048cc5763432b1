// `npm test`: every check the project has, in order of cost: types, lint and format, unused code (knip), unit and integration
// tests (vitest, real Redis), the shortened fault suite, then browser tests (playwright-core + the machine's Chromium) against the built apps.
// First it finds the browser (stopping at once without one) and the test services (scripts/services.mjs, one line
// says which); last it checks that no process it started is still running.
// Ends with one line "Tests: N passed, N failed" summing every runner.
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from './chromium.mjs';
import { processWatch, startTestServices } from './test-processes.mjs';
import { vitestFailures } from './vitest-failures.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reportDir = path.join(root, '.data', 'test-reports');
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const env = { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' };
env.REFERENCE_DATA_DIR ??= path.resolve(root, '../shared/data');

let passed = 0;
let failed = 0;
/** What failed, by name, repeated at the end (a long run's failure is otherwise far up in its output). */
const failures = [];

function step(title, command, args) {
  console.log(`\n▶ ${title}`);
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) failures.push(`step "${title}" exited ${result.status ?? result.signal}`);
  return result.status === 0;
}

let services;
let watch;

function finish(ok) {
  services?.stop();
  if (watch) {
    console.log('\n▶ No process of this run left running (redis-server, PGlite, apps, browser)');
    const left = watch.leftovers();
    for (const p of left) {
      console.log(`  still running: ${p.pid} ${p.args}`);
      try {
        process.kill(p.pid, 'SIGKILL');
      } catch {
        // gone meanwhile
      }
    }
    console.log(left.length === 0 ? 'None left.' : `${left.length} left running (now killed).`);
    if (left.length === 0) passed += 1;
    else {
      failed += 1;
      failures.push(`processes left running: ${left.map((p) => p.args).join('; ')}`);
    }
  }
  // .ci/run prints this file again at its very end.
  writeFileSync(path.join(reportDir, 'failures.txt'), failures.map((line) => `${line}\n`).join(''));
  if (failures.length > 0) console.log(`\nFailed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
  console.log(`\nTests: ${passed} passed, ${failed} failed`);
  process.exit(ok && failed === 0 ? 0 : 1);
}

// The browser first: without one the browser tests would fail only at the very end. Never downloaded.
const browser = findChromium(env);
if (!browser.path) {
  console.error(`\n${browser.problem}`);
  failures.push(`no browser: ${browser.problem}`);
  finish(false);
}
env.CHROMIUM_PATH = browser.path;

// The services, found once for every runner (vitest's setup, the benchmarks, the browser tests).
watch = processWatch(root);
try {
  services = startTestServices(root, env);
} catch (error) {
  console.error(`\n${error.message}`);
  failures.push(`test services: ${error.message}`);
  finish(false);
}
console.log(`${services.line}\nBrowser: ${browser.path}`);
env.REDIS_URL = services.redisUrl;
env.TEST_DATABASE_URL = services.databaseUrl;

if (!step('Type check', 'npx', ['turbo', 'run', 'typecheck', '--output-logs=errors-only'])) finish(false);
if (!step('Lint and format', 'npm', ['run', 'lint', '--silent'])) finish(false);
// Files, exports and dependencies nothing uses (knip.ts says what it ignores and why).
if (!step('Unused files, exports and dependencies (knip)', 'npm', ['run', '--silent', 'knip'])) finish(false);
// The import arrows the layout promises: no circle, the worker's layers one way, no app importing another
// (.dependency-cruiser.cjs).
if (!step('Import arrows (dependency-cruiser)', 'npm', ['run', '--silent', 'arch:check'])) finish(false);

const vitestReport = path.join(reportDir, 'vitest.json');
const unitOk = step('Unit and integration tests (vitest, real Redis)', 'npx', [
  'vitest',
  'run',
  '--reporter=default',
  '--reporter=json',
  `--outputFile.json=${vitestReport}`,
]);
if (existsSync(vitestReport)) {
  const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
  passed += report.numPassedTests;
  failed += report.numFailedTests;
  failures.push(...vitestFailures(vitestReport, root));
}
if (!unitOk) finish(false);

const e2eFiles = ['apps/web/e2e']
  .filter((dir) => existsSync(path.join(root, dir)))
  .flatMap((dir) =>
    readdirSync(path.join(root, dir))
      .filter((f) => f.endsWith('.e2e.ts'))
      .map((f) => `${dir}/${f}`),
  );
if (e2eFiles.length > 0) {
  if (!step('Build for browser tests', 'npx', ['turbo', 'run', 'build', '--output-logs=errors-only']))
    finish(false);
  // The benchmarks, for a few seconds each and without judging their goals: proof they still run.
  if (
    !step('Benchmark smoke run (goals not judged)', process.execPath, [
      'scripts/bench.mjs',
      '--smoke',
      '--skip-build',
    ])
  )
    finish(false);
  // The fault suite, shortened (about three and a half minutes), every scenario: `kills` (~80 leads: real
  // processes, worker kills, Redis kill -9, upstream faults), `big-answers` (2 × 70 leads, 50 MB answers; fails when
  // a worker's RSS passes its bound or a lead its deadline), `failover` (~190 leads: a primary, a replica and three
  // Sentinels, the primary killed twice); each fails on a lost or stuck lead, a second upstream lead, or two leads
  // under one idempotency key; and `slow-buyer` (2 × 140 leads, a buyer answering in its budget less 1 s; fails
  // when the other leads' decision → outcome p99 passes 1.5× the run without it, or a lead is lost, stuck or late).
  const faultsOk = step('Fault suite (--short)', process.execPath, [
    '--conditions=source',
    '--import',
    'tsx',
    'scripts/fault-suite.ts',
    '--short',
  ]);
  if (faultsOk) passed += 1;
  else {
    failed += 1;
    finish(false);
  }
  const e2eReport = path.join(reportDir, 'e2e.json');
  const e2eOk = step('Browser tests (playwright-core, Chromium)', process.execPath, [
    '--import',
    'tsx',
    '--conditions=source',
    '--test',
    '--test-concurrency=1',
    '--test-reporter=spec',
    '--test-reporter-destination=stdout',
    '--test-reporter=./scripts/count-reporter.mjs',
    `--test-reporter-destination=${e2eReport}`,
    ...e2eFiles,
  ]);
  if (existsSync(e2eReport)) {
    const counts = JSON.parse(readFileSync(e2eReport, 'utf8'));
    passed += counts.passed;
    failed += counts.failed;
    failures.push(...(counts.failures ?? []));
  }
  if (!e2eOk) finish(false);
}

// The compose stack end to end on a real Docker engine (issue 22; several minutes): needs an engine that answers,
// or root and dockerd (it starts its own). .ci/run installs docker.io and debootstrap.
const engine =
  spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0 ||
  (process.getuid?.() === 0 && spawnSync('dockerd', ['--version'], { stdio: 'ignore' }).status === 0);
if (!engine)
  console.log('\n▶ Compose stack end to end: skipped (no Docker engine, and no dockerd to start as root)');
else if (step('Compose stack end to end (real Docker engine)', 'npm', ['run', 'test:compose', '--silent']))
  passed += 1;
else {
  failed += 1;
  finish(false);
}
finish(true);
