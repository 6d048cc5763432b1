// `npm test`: every check the project has, as stages that start as soon as what they need is there (ADR 0027):
// the static checks (types, lint and format, knip, dependency-cruiser) beside the unit and integration tests
// (vitest, real Redis and PostgreSQL) and the build; after the build, the benchmark smoke run, the shortened fault
// suite and the browser tests (playwright-core + the machine's Chromium, two files at a time); and the compose
// stack on a real Docker engine from the start (its images build while the tests run). Every stage runs even when
// another fails; each prints its duration, and a heartbeat names the running ones every 20 s.
// First it finds the browser and the test services (scripts/services.mjs, one line says which); last it checks
// that no process it started is still running and that the host's network state is as it found it.
// `node scripts/test.mjs <stage>…` runs only those stages (and what they need). Ends with one line
// "Tests: N passed, N failed" summing every runner; the exit code is non-zero on any failure.
// First: an unsupported Node stops here with one line, before any other module loads.
import './node-version.mjs';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from './chromium.mjs';
import { hostState, hostStateChanges } from './host-state.mjs';
import { runStages, selectStages } from './stage-runner.mjs';
import { processWatch, startTestServices } from './test-processes.mjs';
import { errorsOutsideTests, vitestFailures } from './vitest-failures.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const reportDir = path.join(root, '.data', 'test-reports');
rmSync(reportDir, { recursive: true, force: true });
mkdirSync(reportDir, { recursive: true });
const env = { ...process.env, FORCE_COLOR: process.env.FORCE_COLOR ?? '1' };
env.REFERENCE_DATA_DIR ??= path.resolve(root, '../shared/data');
// Under CI a stage that cannot run here is a failure, not a skip that reads as a pass (issue 46).
const ci = Boolean(process.env.CI) && process.env.CI !== 'false';
const cores = availableParallelism();

let passed = 0;
let failed = 0;
/** What failed, by name, repeated at the end (a long run's failure is otherwise far up in its output). */
const failures = [];
const runStarted = Date.now();
/** Failed tests counted from each stage's own report, by stage. */
const counted = new Map();
const count = (stage, failedTests) => {
  failed += failedTests;
  counted.set(stage, (counted.get(stage) ?? 0) + failedTests);
};

// The static checks and the compose test's image builds only use the processor; the tests wait on timers and
// deadlines. The checks run niced, so the tests get the cores first: nice 5, about a third of a test's share, not
// more, as on a machine other work loads (a CPU hog) a deeper nice starves the checks until the tests are done.
const niced = (command, args) => ({ command: 'nice', args: ['-n', '5', command, ...args] });
const e2eFiles = ['apps/web/e2e']
  .filter((dir) => existsSync(path.join(root, dir)))
  .flatMap((dir) =>
    readdirSync(path.join(root, dir))
      .filter((f) => f.endsWith('.e2e.ts'))
      .map((f) => `${dir}/${f}`),
  );
const vitestReport = path.join(reportDir, 'vitest.json');
const e2eReport = path.join(reportDir, 'e2e.json');

// The browser and the services are found before any stage starts; a stage that needs a missing one fails with why.
const browser = findChromium(env);
if (browser.path) env.CHROMIUM_PATH = browser.path;
const watch = processWatch(root);
const hostBefore = hostState();
let services;
let servicesProblem;
try {
  services = startTestServices(root, env);
  env.REDIS_URL = services.redisUrl;
  env.TEST_DATABASE_URL = services.databaseUrl;
  console.log(services.line);
} catch (error) {
  servicesProblem = error.message;
  console.error(`\n${servicesProblem}`);
}
console.log(`Browser: ${browser.path ?? browser.problem}`);
const needServices = () => servicesProblem && `the test services: ${servicesProblem}`;

// Types, lint and format, unused code (knip.ts says what it ignores and why), and the import arrows the layout
// promises (.dependency-cruiser.cjs). Each keeps a cache under node_modules/.cache, so a second run checks only
// what changed. The type check runs two workspaces at a time: each native tsc already uses every core.
const staticStages = [
  {
    name: 'typecheck',
    timeoutSeconds: 1200,
    title: 'Type check',
    run: niced('npx', ['turbo', 'run', 'typecheck', '--output-logs=errors-only', '--concurrency=2']),
  },
  {
    name: 'lint',
    timeoutSeconds: 1500,
    title: 'Lint and format',
    run: niced('npm', ['run', 'lint', '--silent']),
  },
  {
    name: 'knip',
    timeoutSeconds: 900,
    title: 'Unused files, exports and dependencies (knip)',
    run: niced('npm', ['run', '--silent', 'knip']),
  },
  {
    name: 'arch',
    timeoutSeconds: 600,
    title: 'Import arrows (dependency-cruiser)',
    run: niced('npm', ['run', '--silent', 'arch:check']),
  },
];

// vitest's default on this machine is one worker per core less one (a single one on two cores); its files wait on
// Redis, PostgreSQL and timers far more than they compute, and each owns its keys, queues and schema. One per core:
// three, beside the build and every other stage, starved tests with deadlines into failing on two cores.
const vitestWorkers = String(Math.max(2, cores));

const stages = [
  ...staticStages,
  {
    name: 'vitest',
    timeoutSeconds: 2100,
    title: 'Unit and integration tests (vitest, real Redis and PostgreSQL)',
    unable: needServices,
    run: {
      command: 'npx',
      args: [
        'vitest',
        'run',
        `--maxWorkers=${vitestWorkers}`,
        '--reporter=default',
        '--reporter=json',
        `--outputFile.json=${vitestReport}`,
      ],
    },
    after(status) {
      if (!existsSync(vitestReport)) return;
      const report = JSON.parse(readFileSync(vitestReport, 'utf8'));
      passed += report.numPassedTests;
      count('vitest', report.numFailedTests);
      const listed = vitestFailures(vitestReport, root);
      failures.push(...listed);
      // Every test passed but the run failed: an error outside the tests, which only the output names.
      if (status !== 0 && listed.length === 0) {
        failures.push(
          ...errorsOutsideTests(path.join(reportDir, 'vitest.log')).map((line) => `vitest: ${line}`),
        );
      }
    },
  },
  {
    name: 'build',
    timeoutSeconds: 900,
    title: 'Build',
    run: { command: 'npx', args: ['turbo', 'run', 'build', '--output-logs=errors-only'] },
  },
  // The benchmarks, for a few seconds each and without judging their goals: proof they still run. Not niced: the
  // BFFs and workers it starts would inherit the niceness, and a niced BFF beside four busy stages took over a
  // minute to start.
  {
    name: 'bench',
    timeoutSeconds: 2100,
    title: 'Benchmark smoke run (goals not judged)',
    needs: ['build'],
    waitsFor: ['vitest'],
    unable: needServices,
    run: { command: process.execPath, args: ['scripts/bench.mjs', '--smoke', '--skip-build'] },
  },
  // The fault suite, shortened (about three and a half minutes), every scenario: `kills` (~80 leads: real
  // processes, worker kills, Redis kill -9, upstream faults), `big-answers` (2 × 70 leads, 50 MB answers; fails when
  // a worker's RSS passes its bound or a lead its deadline), `failover` (~190 leads: a primary, a replica and three
  // Sentinels, the primary killed twice); each fails on a lost or stuck lead, a second upstream lead, or two leads
  // under one idempotency key; and `slow-buyer` (2 × 140 leads, a buyer answering in its budget less 1 s; fails
  // when a lead is lost, stuck or late; the other leads' p99 ratio with / without it is printed, judged only in the
  // full run);
  // `evidence` (2 × 50 submits, the BFF killed -9 in each burst; fails on a decided lead without its `submitted`
  // event or archived consent, or a funnel lead whose consent copy is kept for less than the retention).
  // After the benchmarks: the fault suite judges deadlines, and beside the smoke
  // run, the browser tests, the compose test and .ci/run's second step, a machine of two cores had five busy stages
  // at once (a CI run where it started with the smoke run saw BFFs take minutes to start and browser tests time out).
  {
    name: 'faults',
    timeoutSeconds: 1500,
    title: 'Fault suite (--short)',
    needs: ['build'],
    // Its turn after the smoke run, whether that passed or not.
    waitsFor: ['bench'],
    unable: needServices,
    run: {
      command: process.execPath,
      args: ['--conditions=source', '--import', 'tsx', 'scripts/fault-suite.ts', '--short'],
    },
    after(status) {
      if (status === 0) passed += 1;
      else count('faults', 1);
    },
  },
  // Two files at a time: each starts its own BFF on a free port with its own key prefix, and its own browser.
  {
    name: 'browser',
    timeoutSeconds: 2700,
    title: 'Browser tests (playwright-core, Chromium, 2 files at a time)',
    needs: ['build'],
    waitsFor: ['vitest'],
    unable: () =>
      needServices() ||
      (!browser.path && browser.problem) ||
      (e2eFiles.length === 0 && 'no browser test files'),
    run: {
      command: process.execPath,
      args: [
        '--import',
        'tsx',
        '--conditions=source',
        '--test',
        '--test-concurrency=2',
        // A test with no time of its own fails after ten minutes, and a file's process ends once its tests are
        // done, whatever it left open (a loop a failed test never stopped once kept a CI run waiting 70 minutes).
        '--test-timeout=600000',
        '--test-force-exit',
        '--test-reporter=spec',
        '--test-reporter-destination=stdout',
        '--test-reporter=./scripts/count-reporter.mjs',
        `--test-reporter-destination=${e2eReport}`,
        ...e2eFiles,
      ],
    },
    after() {
      if (!existsSync(e2eReport)) return;
      const counts = JSON.parse(readFileSync(e2eReport, 'utf8'));
      passed += counts.passed;
      count('browser', counts.failed);
      failures.push(...(counts.failures ?? []));
    },
  },
  // The compose stack end to end on a real Docker engine (issue 22): an engine that answers, or root and dockerd
  // (it starts its own). .ci/run installs docker.io and debootstrap. Most of its time is building images, which
  // needs nothing else and mostly waits on the network and the disk: that part starts at once, niced, beside the
  // checks and the unit tests; the stack itself runs once they are done, its images then coming from the cache.
  {
    name: 'compose-images',
    timeoutSeconds: 2400,
    title: 'Compose images (base and app, kept for the compose stage)',
    unable: dockerUnable,
    run: niced('npm', ['run', 'test:compose', '--silent', '--', '--images-only']),
  },
  {
    name: 'compose',
    timeoutSeconds: 2700,
    title: 'Compose stack end to end (real Docker engine)',
    // Whether or not the images stage passed: without its images, this one builds them.
    waitsFor: ['vitest', 'compose-images'],
    unable: dockerUnable,
    run: niced('npm', ['run', 'test:compose', '--silent']),
    after(status) {
      if (status === 0) passed += 1;
      else count('compose', 1);
    },
  },
];

// Each stage's timeoutSeconds is where it is taken as hung, not a goal: a stage past its time is stopped with all it
// started and fails as timed out, so one hung test costs its stage rather than the CI run's 90 minutes. The longest
// chains (vitest then the browser tests; the build, the smoke run, then the fault suite) stay under 80 minutes.
function dockerUnable() {
  const engine =
    spawnSync('docker', ['info'], { stdio: 'ignore' }).status === 0 ||
    (process.getuid?.() === 0 && spawnSync('dockerd', ['--version'], { stdio: 'ignore' }).status === 0);
  return engine ? undefined : 'no Docker engine answers, and no dockerd to start as root';
}

let chosen;
try {
  chosen = selectStages(stages, process.argv.slice(2));
} catch (error) {
  console.error(error.message);
  process.exit(2);
}
// Outside CI, a machine without a container engine skips the compose test and says so; CI fails it.
if (!ci) {
  const compose = chosen.filter((stage) => stage.name.startsWith('compose'));
  const why = compose[0]?.unable();
  if (why) {
    console.log(`\n▶ Compose stack end to end: skipped (${why}; under CI=true this fails)`);
    chosen = chosen.filter((stage) => !compose.includes(stage));
  }
}
const results = await runStages(chosen, { cwd: root, env, logDir: reportDir });

services?.stop();
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

console.log('\n▶ The host as this run found it (network links, packet filter rules, IP forwarding, /run)');
const changes = hostStateChanges(hostBefore, hostState());
console.log(changes.length === 0 ? 'Unchanged.' : changes.map((line) => `  ${line}`).join('\n'));
if (changes.length === 0) passed += 1;
else {
  failed += 1;
  failures.push(`host state changed: ${changes.join('; ')}`);
}

// Each stage's time and processor time (user + system, GNU time's count): .ci/run prints this table again at its end.
const stageTable = [
  '  verdict   time    processor  stage',
  ...results.map(
    (r) =>
      `  ${r.ok ? 'passed' : 'FAILED'}  ${String(r.seconds).padStart(5)} s  ${r.cpuSeconds === undefined ? '      –' : `${String(r.cpuSeconds).padStart(7)} s`}  ${r.name}`,
  ),
  `  total   ${String(Math.round((Date.now() - runStarted) / 1000)).padStart(5)} s`,
];
console.log(`\n▶ Stages\n${stageTable.join('\n')}`);
writeFileSync(path.join(reportDir, 'stages.txt'), `${stageTable.join('\n')}\n`);
for (const result of results) {
  if (!result.ok) failures.unshift(`stage "${result.title}" ${result.why}`);
}
// A stage that failed with no failed test counted from its report (a type error, a lint finding, a crash, a stage
// that could not run) counts as one failure, so the last line never reads 0 failed after a failure.
failed += results.filter((r) => !r.ok && !counted.get(r.name)).length;
// .ci/run prints this file again at its very end.
writeFileSync(path.join(reportDir, 'failures.txt'), failures.map((line) => `${line}\n`).join(''));
if (failures.length > 0) console.log(`\nFailed:\n${failures.map((line) => `  ${line}`).join('\n')}`);
console.log(`\nTests: ${passed} passed, ${failed} failed`);
process.exit(failures.length === 0 && failed === 0 ? 0 : 1);
