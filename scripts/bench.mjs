// `npm run bench`: builds the apps, then runs every benchmark in bench/ one after another, each pinned (with
// taskset, when present) to the CPU the load generator uses, while the server under test gets the other one.
// Each prints one line per figure: measure | product | baseline | ratio | goal | PASS/FAIL.
// `npm run bench:smoke` (`--smoke`): a few seconds each, goals not judged; CI runs it so the scripts cannot rot.
// `--skip-build` when the apps are already built.
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const smoke = process.argv.includes('--smoke');
const only = process.argv.slice(2).filter((arg) => !arg.startsWith('--'));
const SCRIPTS = [
  'bundle',
  'step-save',
  'durable-writes',
  'lookup',
  'sse-connections',
  'sse-latency',
  'poll-lateness',
  'buyer-waterfall',
  'auction',
  'buyer-pause',
  'system-of-record',
  'capacity',
  'audit-cost',
  'lighthouse',
].filter((name) => only.length === 0 || only.includes(name));

const env = { ...process.env, BENCH_SMOKE: smoke ? '1' : '0' };
env.REFERENCE_DATA_DIR ??= path.resolve(root, '../shared/data');
const hasTaskset = spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;

if (!process.argv.includes('--skip-build')) {
  const build = spawnSync('npx', ['turbo', 'run', 'build', '--output-logs=errors-only'], {
    cwd: root,
    stdio: 'inherit',
    env,
  });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

console.log(`\nmeasure | product | baseline | ratio | goal | ${smoke ? 'smoke (not judged)' : 'verdict'}`);
const failed = [];
const started = Date.now();
for (const name of SCRIPTS) {
  const node = [process.execPath, '--conditions=source', '--import', 'tsx', `bench/${name}.ts`];
  const [command, ...args] = hasTaskset ? ['taskset', '-c', '1', ...node] : node;
  const scriptStarted = Date.now();
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) failed.push(name);
  console.log(
    `# ${name}.ts: ${result.status === 0 ? 'done' : `exit ${result.status}`} in ${Math.round((Date.now() - scriptStarted) / 1000)} s`,
  );
}
const minutes = ((Date.now() - started) / 60_000).toFixed(1);
console.log(
  failed.length === 0
    ? `\nAll ${SCRIPTS.length} benchmarks ${smoke ? 'ran' : 'met their goals'} (${minutes} min).`
    : `\n${failed.length} of ${SCRIPTS.length} benchmarks ${smoke ? 'failed to run' : 'missed a goal or failed'}: ${failed.join(', ')} (${minutes} min).`,
);
process.exit(failed.length === 0 ? 0 : 1);
