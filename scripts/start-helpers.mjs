// Pieces of `npm start` (scripts/start.mjs) kept apart so the script reads as its steps: the build with one line
// per package, free ports for a second copy, and waiting until every app answers before saying where it is.
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';
import { stripVTControlCharacters } from 'node:util';

/**
 * Runs `turbo run build`, printing one line per package as it finishes (turbo's grouped log order prints a
 * task's output when it ends) and a line every 15 s while it runs, so a first build (about 90 s) is never
 * silent. turbo's own output is shown only when the build fails. Resolves true when it succeeded.
 */
export async function buildWithProgress({ cwd, env, say, filter }) {
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);
  const only = filter ? [`--filter=${filter}`] : [];
  const plan = await capture('npx', ['turbo', 'run', 'build', '--dry=json', ...only], { cwd, env });
  const tasks = plan.ok
    ? JSON.parse(plan.stdout).tasks.filter((task) => task.command !== '<NONEXISTENT>')
    : [];
  const cached = tasks.filter((task) => task.cache?.status === 'HIT').length;
  const waiting = new Set(tasks.map((task) => task.package));
  say(
    tasks.length === 0
      ? 'Building…'
      : cached === tasks.length
        ? `Building: all ${tasks.length} packages are cached.`
        : `Building ${tasks.length - cached} of ${tasks.length} packages (${cached} cached; a first build takes about 90 s)…`,
  );
  const ticker = setInterval(
    () => say(`  still building (${seconds()} s), not done yet: ${[...waiting].join(', ')}`),
    15_000,
  );
  const build = await capture(
    'npx',
    ['turbo', 'run', 'build', '--output-logs=new-only', '--log-order=grouped', ...only],
    { cwd, env },
    (line) => {
      // Without colour codes: turbo colours its prefixes when FORCE_COLOR is set (npm test sets it).
      const done = /^(\S+?):build: cache (hit|miss|bypass)/.exec(stripVTControlCharacters(line));
      if (!done) return;
      waiting.delete(done[1]);
      say(`  ${done[1]} ${done[2] === 'hit' ? 'cached' : `built (${seconds()} s)`}`);
    },
  );
  clearInterval(ticker);
  if (!build.ok) {
    process.stderr.write(build.output);
    say(`The build failed after ${seconds()} s (turbo's output above).`);
  } else {
    say(`Built in ${seconds()} s.`);
  }
  return build.ok;
}

function capture(command, args, options, onLine = () => {}) {
  return new Promise((resolve) => {
    const child = spawn(command, args, { ...options, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    let stdout = '';
    let partial = '';
    const take = (chunk) => {
      output += chunk;
      stdout += chunk;
      const lines = (partial + chunk).split('\n');
      partial = lines.pop();
      for (const line of lines) onLine(line);
    };
    child.stdout.setEncoding('utf8').on('data', take);
    child.stderr.setEncoding('utf8').on('data', (chunk) => (output += chunk));
    child.on('error', (error) => resolve({ ok: false, stdout, output: `${output}${error.message}\n` }));
    child.on('close', (code) => resolve({ ok: code === 0, stdout, output }));
  });
}

/**
 * Sets each unset port variable in `env` to its preferred port when free, else to any free port (saying so).
 * Returns whether a preferred port was taken: then another copy is probably running.
 */
export async function choosePorts(env, ports, say) {
  let secondCopy = false;
  for (const { name, preferred, what } of ports) {
    if (env[name]) continue;
    if (await portIsFree(preferred)) {
      env[name] = String(preferred);
    } else {
      env[name] = String(await anyFreePort());
      secondCopy = true;
      say(
        `Port ${preferred} (${what}) is taken, another copy may be running: using ${env[name]} (set ${name} to choose).`,
      );
    }
  }
  return { secondCopy };
}

/** Whether nothing listens on `port` (on any address). */
export function portIsFree(port) {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen({ port, exclusive: true }, () => server.close(() => resolve(true)));
  });
}

/** A port the system has free right now. */
export function anyFreePort() {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port: 0, host: '127.0.0.1' }, () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * Resolves once every URL answers 200 (polled every 250 ms), or rejects after `timeoutMs` naming those that did
 * not. `isStopping` ends the wait early when the apps are being stopped.
 */
export async function waitUntilReady(urls, { timeoutMs = 60_000, isStopping = () => false } = {}) {
  const deadline = Date.now() + timeoutMs;
  const pending = new Set(urls);
  while (pending.size > 0) {
    if (isStopping()) return false;
    for (const url of [...pending]) {
      const ok = await fetch(url, { signal: AbortSignal.timeout(1_000) })
        .then((response) => response.ok)
        .catch(() => false);
      if (ok) pending.delete(url);
    }
    if (pending.size === 0) break;
    if (Date.now() > deadline)
      throw new Error(`not ready after ${timeoutMs / 1000} s: ${[...pending].join(', ')}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  return true;
}
