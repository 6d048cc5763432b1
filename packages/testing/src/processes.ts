import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { testEnv } from './env.js';
import { until } from './until.js';

/** The repository root, for starting apps from their TypeScript sources. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

/** A TCP port nothing listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface AppProcess {
  readonly child: ChildProcess;
  /** Everything the process wrote, for failure messages and log assertions. */
  output(): string;
  /** SIGTERM, then SIGKILL after `graceMs`; resolves once the process is gone. */
  stop(graceMs?: number): Promise<void>;
  /** SIGKILL at once: a crash, for fault tests. */
  kill(): Promise<void>;
}

/**
 * Starts one of the apps from its TypeScript entry point (tsx, `source` export condition) as a real process,
 * and waits until `readyUrl` answers 2xx.
 */
export async function startApp(options: {
  entry: string;
  env: Record<string, string>;
  readyUrl?: string;
  readyLog?: RegExp;
  timeoutMs?: number;
}): Promise<AppProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=source', '--import', 'tsx', path.resolve(REPO_ROOT, options.entry)],
    {
      cwd: REPO_ROOT,
      env: { PATH: testEnv.path, NODE_ENV: 'test', ...options.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));

  // A bound for an app that never gets ready, not a speed check: under tsx on a loaded two-core machine a worker
  // took over 20 s to start.
  const deadline = Date.now() + (options.timeoutMs ?? 60_000);
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${options.entry} exited early:\n${output}`);
    if (options.readyLog?.test(output)) break;
    if (options.readyUrl) {
      const ok = await fetch(options.readyUrl).then(
        (r) => r.ok,
        () => false,
      );
      if (ok) break;
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`${options.entry} did not become ready:\n${output}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }

  return {
    child,
    output: () => output,
    async stop(graceMs = 5000) {
      if (child.exitCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
    async kill() {
      if (child.exitCode !== null) return;
      child.kill('SIGKILL');
      await exited;
    },
  };
}

export interface RedisServer {
  readonly port: number;
  readonly url: string;
  /** kill -9: the server dies at once, as in a crash. */
  kill(): Promise<void>;
  /** Starts it again on the same port (and the same AOF file, when it has one); nothing when it is running. */
  start(): Promise<void>;
}

/**
 * A redis-server of the test's own, bound to 127.0.0.1 on a free port, that the test may kill and restart: the
 * shared Redis is never stopped. With `aofDir`, it keeps an append-only file there (fsync every second) and reloads
 * it on restart. With `snapshots` too, it also has RDB save points (as Redis's default configuration does) and
 * writes its files uncompressed, so a test can search them for text. `kill()` at the end of the test leaves nothing
 * running.
 */
export async function startRedisServer(
  options: {
    aofDir?: string;
    snapshots?: boolean;
    /** More redis-server arguments (`--replicaof host port`, `--min-replicas-to-write 1`). */
    args?: readonly string[];
    /** A name for its files in `aofDir`, so several servers can share one directory. */
    name?: string;
  } = {},
): Promise<RedisServer> {
  const port = await freePort();
  let child: ChildProcess | undefined;
  const running = () => child !== undefined && child.exitCode === null && child.signalCode === null;
  const save = options.snapshots ? ['--save', '3600 1', '--rdbcompression', 'no'] : ['--save', ''];
  const persistence = options.aofDir
    ? [
        ...save,
        '--appendonly',
        'yes',
        '--dir',
        options.aofDir,
        ...(options.name
          ? ['--appenddirname', `aof-${options.name}`, '--dbfilename', `${options.name}.rdb`]
          : []),
      ]
    : // No file at all: as a replica, it loads the primary's snapshot straight into memory rather than through a
      // dump.rdb in the working directory.
      ['--save', '', '--appendonly', 'no', '--repl-diskless-load', 'swapdb'];
  const args = ['--bind', '127.0.0.1', '--port', String(port), ...persistence, ...(options.args ?? [])];
  const start = async () => {
    // A second server on the same port would fail to bind and exit, leaving this one unowned (and running).
    if (running()) return;
    const current = spawn('redis-server', args, { stdio: 'ignore' });
    child = current;
    const deadline = Date.now() + 10_000;
    for (;;) {
      if (current.exitCode !== null)
        throw new Error(`redis-server on port ${port} exited (${current.exitCode})`);
      if (await pingRedis(port)) return;
      if (Date.now() > deadline) throw new Error(`redis-server on port ${port} did not start`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  await start();
  return {
    port,
    url: `redis://127.0.0.1:${port}`,
    async kill() {
      const current = child;
      if (!current || !running()) return;
      const exited = new Promise<void>((resolve) => current.once('exit', () => resolve()));
      current.kill('SIGKILL');
      await exited;
    },
    start,
  };
}

/** A primary and its replica, each a redis-server of the test's own (ADR 0018's durable writes). */
export interface ReplicaPair {
  primary: RedisServer;
  replica: RedisServer;
  /** A connection to the replica, to read what it holds; it keeps retrying while the replica is down. */
  onReplica: Redis;
  /** Resolves once the replica's link to the primary is up (after a start, or a restart of the replica). */
  synced(): Promise<void>;
  /** Disconnects and kills both. */
  stop(): Promise<void>;
}

/** Starts a primary and a replica of it, and waits until the replica is in sync. */
export async function startReplicaPair(): Promise<ReplicaPair> {
  const primary = await startRedisServer();
  const replica = await startRedisServer({ args: ['--replicaof', '127.0.0.1', String(primary.port)] });
  const onReplica = new Redis(replica.url, { maxRetriesPerRequest: 1, retryStrategy: () => 200 });
  onReplica.on('error', () => undefined);
  const synced = async () => {
    await until(
      'the replica to sync',
      async () => (await onReplica.info('replication')).includes('master_link_status:up'),
      { timeoutMs: 10_000, intervalMs: 100 },
    );
  };
  await synced();
  return {
    primary,
    replica,
    onReplica,
    synced,
    async stop() {
      onReplica.disconnect();
      await replica.kill();
      await primary.kill();
    },
  };
}

async function pingRedis(port: number): Promise<boolean> {
  const { connect } = await import('node:net');
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(500);
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) => {
      socket.destroy();
      resolve(data.toString().startsWith('+PONG'));
    });
    socket.once('error', () => resolve(false));
    socket.once('timeout', () => {
      socket.destroy();
      resolve(false);
    });
  });
}
