// For test.mjs: runs its stages as a graph, each as soon as the stages it needs have passed, so stages that do not
// depend on each other share the machine instead of waiting in line. A stage's output goes to its own log file
// and is printed whole when it ends (concurrent outputs would otherwise interleave line by line); while stages
// run, a heartbeat line every 20 s says which and for how long, with the last line each printed.
import { spawn } from 'node:child_process';
import { appendFileSync, closeSync, existsSync, openSync, readFileSync } from 'node:fs';
import { constants } from 'node:os';
import path from 'node:path';

const HEARTBEAT_MS = 20_000;
const KILL_GRACE_MS = 60_000;
// eslint-disable-next-line no-control-regex -- the escape sequences of coloured output
const ANSI = /\u001b\[[0-9;]*[A-Za-z]/g;

const seconds = (since) => `${Math.round((Date.now() - since) / 1000)} s`;

function lastLine(file) {
  try {
    const lines = readFileSync(file, 'utf8')
      .replace(ANSI, '')
      .split(/[\r\n]/)
      .map((l) => l.trim());
    return lines.filter(Boolean).at(-1)?.slice(0, 110) ?? '';
  } catch {
    return '';
  }
}

// GNU time reports the processor time of a command and every descendant it waited for: what each stage costs the
// machine, beside how long it took (work a container engine does for a stage is the engine's, not counted).
const GNU_TIME = '/usr/bin/time';
const hasGnuTime = existsSync(GNU_TIME);

// The stages' process groups while runStages runs: being in groups of their own, they miss a Ctrl-C or a kill
// meant for `npm test`, which is passed on to them before this process ends as the signal asks.
const runningGroups = new Set();
const FORWARDED_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'];
function forwardToGroups(signal) {
  for (const pid of runningGroups) {
    try {
      process.kill(-pid, signal);
    } catch {
      // ended meanwhile
    }
  }
  process.exit(128 + constants.signals[signal]);
}

/**
 * Runs one command with its output in `logFile`; resolves to its exit status (or signal name) and the processor
 * seconds it used (user + system), when GNU time is there to tell.
 */
function runLogged(command, args, { cwd, env, logFile, timeoutSeconds }) {
  return new Promise((resolve) => {
    const fd = openSync(logFile, 'w');
    const cpuFile = `${logFile}.cpu`;
    const [program, programArgs] = hasGnuTime
      ? [GNU_TIME, ['-f', '%U %S', '-o', cpuFile, command, ...args]]
      : [command, args];
    // A process group of its own, so a stage past its time is stopped with everything it started.
    const child = spawn(program, programArgs, { cwd, env, stdio: ['ignore', fd, fd], detached: true });
    closeSync(fd);
    runningGroups.add(child.pid);
    let timedOut = false;
    const signalGroup = (signal) => {
      try {
        process.kill(-child.pid, signal);
      } catch {
        // the group has ended
      }
    };
    // SIGTERM first (the compose test takes its stack and engine down on it), SIGKILL after a minute.
    const timer = timeoutSeconds
      ? setTimeout(() => {
          timedOut = true;
          appendFileSync(logFile, `\n[stage runner] still running after ${timeoutSeconds} s: stopped\n`);
          signalGroup('SIGTERM');
          setTimeout(() => signalGroup('SIGKILL'), KILL_GRACE_MS).unref();
        }, timeoutSeconds * 1000)
      : undefined;
    const cpuSeconds = () => {
      try {
        const [user, system] = readFileSync(cpuFile, 'utf8').trim().split('\n').at(-1).split(' ').map(Number);
        return Number.isFinite(user + system) ? Math.round(user + system) : undefined;
      } catch {
        return undefined;
      }
    };
    child.on('error', (error) => resolve({ status: `not started (${error.message})` }));
    child.on('exit', (code, signal) => {
      runningGroups.delete(child.pid);
      clearTimeout(timer);
      if (timedOut) signalGroup('SIGKILL');
      resolve({
        status: timedOut ? `timed out after ${timeoutSeconds} s` : (code ?? signal),
        cpuSeconds: cpuSeconds(),
      });
    });
  });
}

/**
 * Each stage: `{ name, title, needs?: string[], waitsFor?: string[], run?: { command, args }, timeoutSeconds?: number,
 * unable?: () => string | undefined, after?: (status) => void }`. A stage still running after `timeoutSeconds` is
 * stopped (its whole process group) and fails as timed out: a hung test costs its stage, not the whole CI run.
 * `unable` names why the stage cannot run on this machine (it then fails with that reason); a stage whose `needs` did not pass fails as "not run". `waitsFor` only orders: the stage starts once
 * those stages (when they run at all) have ended, passed or not, so timing-sensitive stages do not share the cores. Resolves to `[{ name, title, ok, why, seconds, cpuSeconds }]`.
 */
export async function runStages(stages, { cwd, env, logDir }) {
  for (const signal of FORWARDED_SIGNALS) process.on(signal, forwardToGroups);
  const started = new Map();
  const done = new Map();
  const results = [];
  const heartbeat = setInterval(() => {
    const running = [...started].filter(([name]) => !done.has(name));
    if (running.length === 0) return;
    const lines = running.map(([name, since]) => {
      const last = lastLine(path.join(logDir, `${name}.log`));
      return `  … ${name} (${seconds(since)})${last ? `: ${last}` : ''}`;
    });
    console.log(`[${new Date().toISOString().slice(11, 19)}] running:\n${lines.join('\n')}`);
  }, HEARTBEAT_MS);

  const byName = new Map(stages.map((stage) => [stage.name, stage]));
  const promises = new Map();
  const runOne = (stage) => {
    if (promises.has(stage.name)) return promises.get(stage.name);
    const promise = (async () => {
      await Promise.all(
        (stage.waitsFor ?? []).filter((name) => byName.has(name)).map((name) => runOne(byName.get(name))),
      );
      const needed = await Promise.all((stage.needs ?? []).map((name) => runOne(byName.get(name))));
      const since = Date.now();
      let ok = false;
      let why = '';
      let cpuSeconds;
      const unmet = (stage.needs ?? []).filter((_, i) => !needed[i]);
      const unable = unmet.length === 0 ? stage.unable?.() : undefined;
      if (unmet.length > 0) why = `not run: needs ${unmet.join(', ')}`;
      else if (unable) why = `cannot run: ${unable}`;
      else {
        started.set(stage.name, since);
        console.log(`\n▶ ${stage.title}: started`);
        const logFile = path.join(logDir, `${stage.name}.log`);
        const run = await runLogged(stage.run.command, stage.run.args, {
          cwd,
          env,
          logFile,
          timeoutSeconds: stage.timeoutSeconds,
        });
        const status = run.status;
        cpuSeconds = run.cpuSeconds;
        ok = status === 0;
        if (!ok) why = typeof status === 'number' ? `exited ${status}` : String(status);
        const output = readFileSync(logFile, 'utf8');
        console.log(
          `\n▶ ${stage.title} (${stage.name}): output\n${output}${output.endsWith('\n') ? '' : '\n'}`,
        );
        stage.after?.(status);
      }
      done.set(stage.name, true);
      const result = {
        name: stage.name,
        title: stage.title,
        ok,
        why,
        seconds: Math.round((Date.now() - since) / 1000),
        cpuSeconds,
      };
      results.push(result);
      const cpu = cpuSeconds === undefined ? '' : ` (processor ${cpuSeconds} s)`;
      console.log(`▶ ${stage.title}: ${ok ? 'passed' : `FAILED (${why})`} in ${result.seconds} s${cpu}`);
      return ok;
    })();
    promises.set(stage.name, promise);
    return promise;
  };
  await Promise.all(stages.map(runOne));
  clearInterval(heartbeat);
  for (const signal of FORWARDED_SIGNALS) process.off(signal, forwardToGroups);
  return results;
}

/** The stages named in `wanted`, with every stage they need (all stages when `wanted` is empty). */
export function selectStages(stages, wanted) {
  if (wanted.length === 0) return stages;
  const byName = new Map(stages.map((stage) => [stage.name, stage]));
  const unknown = wanted.filter((name) => !byName.has(name));
  if (unknown.length > 0) {
    throw new Error(
      `No stage named ${unknown.join(', ')}; the stages: ${stages.map((s) => s.name).join(', ')}`,
    );
  }
  const chosen = new Set();
  const add = (name) => {
    if (chosen.has(name)) return;
    chosen.add(name);
    for (const need of byName.get(name).needs ?? []) add(need);
  };
  wanted.forEach(add);
  return stages.filter((stage) => chosen.has(stage.name));
}
