// For test.mjs: the test services' host process, waited for without an event loop, and the check that no process
// the run started (redis-server, PGlite, the apps, a browser) is still running when it ends.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, readdirSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const pause = new Int32Array(new SharedArrayBuffer(4));
const sleep = (ms) => Atomics.wait(pause, 0, 0, ms);

/** Waits (blocking) until `done()` holds or `ms` pass; true when it held. */
function waitFor(done, ms) {
  const deadline = Date.now() + ms;
  while (!done()) {
    if (Date.now() > deadline) return false;
    sleep(50);
  }
  return true;
}

/**
 * Starts scripts/test-services.mjs and waits for its choice. Returns `{ redisUrl, databaseUrl, line, stop() }`;
 * `stop()` blocks until the host has stopped every server it started. Throws with the host's message on failure.
 */
export function startTestServices(root, env) {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'funnel-test-services-'));
  const file = (name) => path.join(dir, name);
  const host = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.join(root, 'scripts/test-services.mjs'), dir],
    { cwd: root, env, stdio: ['pipe', 'inherit', 'inherit'] },
  );
  // Testcontainers may pull an image: up to two minutes.
  waitFor(() => existsSync(file('ready.json')) || existsSync(file('failed')), 120_000);
  if (!existsSync(file('ready.json'))) {
    host.kill('SIGKILL');
    const why = existsSync(file('failed')) ? readFileSync(file('failed'), 'utf8') : 'no answer in 120 s';
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`The test services could not be found or started: ${why}`);
  }
  const found = JSON.parse(readFileSync(file('ready.json'), 'utf8'));
  return {
    ...found,
    stop() {
      host.kill('SIGTERM');
      waitFor(() => existsSync(file('stopped')), 30_000);
      // Its last instant: writing `stopped` precedes its exit.
      waitFor(() => !running(host.pid), 5_000);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** True while `pid` runs (a zombie, exited but not reaped, does not). */
function running(pid) {
  return processes().some((p) => p.pid === pid);
}

/**
 * Every live process: pid, process group, command line, and (Linux) working directory. Zombies are left out.
 */
function processes() {
  if (existsSync('/proc/self/stat')) {
    const list = [];
    for (const name of readdirSync('/proc')) {
      if (!/^\d+$/.test(name)) continue;
      try {
        const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
        const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        if (fields[0] === 'Z') continue;
        const args = readFileSync(`/proc/${name}/cmdline`, 'utf8').split('\0').join(' ').trim();
        let cwd = '';
        let netns = '';
        try {
          cwd = readlinkSync(`/proc/${name}/cwd`);
          netns = readlinkSync(`/proc/${name}/ns/net`);
        } catch {
          // another user's process
        }
        list.push({ pid: Number(name), ppid: Number(fields[1]), pgid: Number(fields[2]), args, cwd, netns });
      } catch {
        // gone meanwhile
      }
    }
    return list;
  }
  const ps = spawnSync('ps', ['-A', '-o', 'pid=,ppid=,pgid=,stat=,args='], { encoding: 'utf8' });
  return ps.stdout
    .split('\n')
    .map((line) => line.trim().match(/^(\d+)\s+(\d+)\s+(\d+)\s+(\S+)\s+(.*)$/))
    .filter((m) => m && !m[4].startsWith('Z'))
    .map((m) => ({
      pid: Number(m[1]),
      ppid: Number(m[2]),
      pgid: Number(m[3]),
      args: m[5],
      cwd: '',
      netns: '',
    }));
}

/**
 * The processes running now that this run may have started: in test.mjs's process group, or working in or naming
 * the checkout, in test.mjs's network namespace (.ci/run's fallback step runs the same checkout's tests beside
 * it, in a namespace of its own). Call it at the start; `leftovers()` then lists those that were not there before.
 * A child of a process that was already running (other than test.mjs and init) is that process's own, not this
 * run's: .ci/run's heartbeat starts a `sleep 20` in the checkout every 20 s.
 */
export function processWatch(root) {
  const own = processes().find((p) => p.pid === process.pid);
  const before = new Set(processes().map((p) => p.pid));
  const ours = (p) =>
    p.pid !== process.pid &&
    p.netns === own?.netns &&
    !(before.has(p.ppid) && p.ppid !== process.pid && p.ppid !== 1) &&
    (p.pgid === own?.pgid || p.cwd === root || p.cwd.startsWith(`${root}/`) || p.args.includes(root));
  return {
    leftovers() {
      const fresh = () => processes().filter((p) => !before.has(p.pid) && ours(p));
      // A process stopped a moment ago may still be exiting.
      waitFor(() => fresh().length === 0, 3_000);
      return fresh().filter((p) => !/^(ps|sh -c ps)\b/.test(p.args));
    },
  };
}
