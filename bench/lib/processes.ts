import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { smoke } from './bench-options.js';

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

const hasTaskset = spawnSync('taskset', ['-V'], { stdio: 'ignore' }).status === 0;
const cpuCount = (() => {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8').match(/^processor/gm)?.length ?? 1;
  } catch {
    return 1;
  }
})();

/**
 * The CPU a process under test is pinned to, and the one for everything else (load generator, Redis): with two
 * cores the server under test, product or baseline alike, gets one core to itself.
 */
export const CPU = { server: '0', load: cpuCount > 1 ? '1' : '0' } as const;

/**
 * The prefix (`taskset -c 0-N`) that runs a command on every CPU, whatever this process is pinned to
 * (scripts/bench.mjs pins each benchmark to the load CPU, and a child inherits that); empty without taskset.
 */
export function onEveryCpu(): string[] {
  return hasTaskset ? ['taskset', '-c', `0-${cpuCount - 1}`] : [];
}

export interface Service {
  readonly child: ChildProcess;
  readonly pid: number;
  output(): string;
  /** Resident set size in bytes, from /proc. */
  rss(): number;
  stop(): Promise<void>;
  kill(): Promise<void>;
}

/** Starts `command args` pinned to `cpu` (when taskset exists) and waits until `ready` says so. */
export async function startService(options: {
  name: string;
  command: string;
  args: string[];
  env?: Record<string, string>;
  cpu?: string;
  ready: (output: string) => boolean | Promise<boolean>;
  timeoutMs?: number;
}): Promise<Service> {
  const [command, args] =
    hasTaskset && options.cpu !== undefined
      ? ['taskset', ['-c', options.cpu, options.command, ...options.args]]
      : [options.command, options.args];
  const child = spawn(command, args, {
    cwd: REPO_ROOT,
    env: { PATH: process.env.PATH ?? '', ...options.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const keep = (chunk: Buffer) => {
    output = (output + chunk.toString()).slice(-200_000);
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  // A smoke run shares the machine with CI's other stages: services get twice the time to come up.
  const deadline = Date.now() + (options.timeoutMs ?? 30_000) * (smoke ? 2 : 1);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${options.name} exited early:\n${output}`);
    if (await options.ready(output)) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.name} did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  const pid = child.pid!;
  const signal = async (sig: NodeJS.Signals) => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    child.kill(sig);
    const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
    await exited;
    clearTimeout(timer);
  };
  return {
    child,
    pid,
    output: () => output,
    rss() {
      const status = readFileSync(`/proc/${pid}/status`, 'utf8');
      const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
      return kb * 1024;
    },
    stop: () => signal('SIGTERM'),
    kill: () => signal('SIGKILL'),
  };
}

/** Resolves true once `url` answers 2xx. */
export async function answers(url: string): Promise<boolean> {
  try {
    return (await fetch(url)).ok;
  } catch {
    return false;
  }
}

/** Runs `fn` with the services it starts, stopping them all afterwards, whatever happens. */
export async function withServices<T>(
  fn: (track: <S extends Service>(service: S) => S) => Promise<T>,
): Promise<T> {
  const started: Service[] = [];
  try {
    return await fn((service) => {
      started.push(service);
      return service;
    });
  } finally {
    for (const service of started.reverse()) await service.stop().catch(() => undefined);
  }
}
