import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { FICTITIOUS_BRAND_SETTINGS } from '@funnel/testing/brand-settings';
import { freePort } from '@funnel/testing/processes';
import { CPU, REPO_ROOT, answers, startService, type Service } from './processes.js';
import { productNodeFlags } from './bench-options.js';

export interface RedisService extends Service {
  readonly url: string;
}

/**
 * A private redis-server on a free port, on the load CPU, keeping nothing on disk; removed on stop. With
 * `replicaOf`, a replica of that server (its `redis://` URL).
 */
export async function startRedis(options: { replicaOf?: string } = {}): Promise<RedisService> {
  const port = await freePort();
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-redis-'));
  const primary = options.replicaOf ? new URL(options.replicaOf) : undefined;
  const service = await startService({
    name: primary ? 'redis-server (replica)' : 'redis-server',
    command: 'redis-server',
    args: [
      ...['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', dir],
      ...(primary ? ['--replicaof', primary.hostname, primary.port] : []),
    ],
    cpu: CPU.load,
    ready: (output) => output.includes('Ready to accept connections'),
  });
  return {
    ...service,
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      await service.stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Secrets for one benchmark run: fresh each time, never written anywhere. */
export function benchSecrets(): Record<string, string> {
  return {
    FIELD_ENCRYPTION_KEYS: `bench:${randomBytes(32).toString('base64')}`,
    COOKIE_SECRETS: randomBytes(32).toString('hex'),
    SUPPRESSION_HASH_SECRET: randomBytes(32).toString('hex'),
    // The benchmarks post one fictitious borrower thousands of times: they measure speed, not duplicates.
    DUPLICATE_WINDOW_DAYS: '0',
  };
}

function cpuProfileArgs(): string[] {
  const dir = process.env.BENCH_CPU_PROF;
  return dir ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(dir)}`] : [];
}

function inspectArgs(port: number | undefined): string[] {
  return port === undefined ? [] : [`--inspect=127.0.0.1:${port}`];
}

const built = (app: string, entry: string) => {
  const file = path.join(REPO_ROOT, 'apps', app, 'dist', entry);
  if (!existsSync(file)) throw new Error(`${file} is missing: run \`npx turbo run build\` first.`);
  return file;
};

export const referenceDataDir = process.env.REFERENCE_DATA_DIR || path.resolve(REPO_ROOT, '../shared/data');

/**
 * The BFF as an operator runs it (the built app, NODE_ENV=production, LOG_LEVEL=info), pinned to the server CPU
 * unless `cpu` says otherwise. Rate limits are raised so the load never trips them: the limiter still runs on every limited request.
 */
export async function startBff(options: {
  redisUrl: string;
  secrets: Record<string, string>;
  env?: Record<string, string>;
  /** Opens the inspector on a free loopback port, for {@link collectAndMeasure}. */
  inspect?: boolean;
  cpu?: string;
  /** Node flags for this BFF alone, before its entry point (a benchmark's bad build, BENCH_SABOTAGE). */
  nodeArgs?: string[];
}): Promise<Service & { url: string; inspectPort?: number }> {
  const port = await freePort();
  const inspectPort = options.inspect ? await freePort() : undefined;
  const url = `http://127.0.0.1:${port}`;
  const service = await startService({
    name: 'bff',
    command: process.execPath,
    // BENCH_CPU_PROF=<dir> writes a V8 CPU profile of the BFF there on exit, to read where its time goes.
    args: [
      ...productNodeFlags(),
      ...cpuProfileArgs(),
      ...inspectArgs(inspectPort),
      ...(options.nodeArgs ?? []),
      built('bff', 'server.js'),
    ],
    cpu: options.cpu ?? CPU.server,
    env: { ...bffEnv(options), PORT: String(port) },
    ready: () => answers(`${url}/readyz`),
    timeoutMs: 60_000,
  });
  return { ...service, url, inspectPort };
}

/** The BFF's environment as {@link startBff} gives it (without the port). */
export function bffEnv(options: {
  redisUrl: string;
  secrets: Record<string, string>;
  env?: Record<string, string>;
}): Record<string, string> {
  return {
    NODE_ENV: 'production',
    ...FICTITIOUS_BRAND_SETTINGS,
    LOG_LEVEL: 'info',
    HOST: '127.0.0.1',
    // The sandbox's buyers answer on the loopback, which production refuses unless listed (ADR 0024).
    BUYER_PRIVATE_RANGES: '127.0.0.0/8',
    REDIS_URL: options.redisUrl,
    REDIS_KEY_PREFIX: 'bench:',
    REFERENCE_DATA_DIR: referenceDataDir,
    COOKIE_SECURE: 'false',
    RATE_LIMIT_MAX: '1000000000',
    ...options.secrets,
    ...options.env,
  };
}

/**
 * The lender sandbox on a free port and the load CPU, configured by its `SANDBOX_*` variables; with `buyers`, it
 * plays those buyers (written to a file of its own, removed on stop).
 */
export async function startSandbox(
  env: Record<string, string>,
  options: { buyers?: readonly unknown[] } = {},
): Promise<Service & { url: string }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const dir = options.buyers ? mkdtempSync(path.join(tmpdir(), 'bench-sandbox-')) : undefined;
  const buyersFile = dir ? path.join(dir, 'sandbox-buyers.json') : undefined;
  if (buyersFile) writeFileSync(buyersFile, JSON.stringify({ buyers: options.buyers }));
  const service = await startService({
    name: 'lender-sandbox',
    command: process.execPath,
    args: [built('lender-sandbox', 'server.js')],
    cpu: CPU.load,
    env: {
      SANDBOX_PORT: String(port),
      SANDBOX_LOG_LEVEL: 'warn',
      ...(buyersFile ? { SANDBOX_BUYERS_FILE: buyersFile } : {}),
      ...env,
    },
    ready: () => answers(`${url}/healthz`),
  });
  return {
    ...service,
    url,
    async stop() {
      await service.stop();
      if (dir) rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** A baseline server from bench/baselines, run from source, pinned to the server CPU. */
export async function startBaseline(
  file: string,
  env: Record<string, string>,
  /** `nodeArgs`: Node flags for this process alone (a benchmark's bad build, BENCH_SABOTAGE). */
  options: { inspect?: boolean; nodeArgs?: string[] } = {},
): Promise<Service & { url: string; inspectPort?: number }> {
  const port = await freePort();
  const inspectPort = options.inspect ? await freePort() : undefined;
  const url = `http://127.0.0.1:${port}`;
  const service = await startService({
    name: file,
    command: process.execPath,
    args: [
      ...inspectArgs(inspectPort),
      ...(options.nodeArgs ?? []),
      '--conditions=source',
      '--import',
      'tsx',
      path.join(REPO_ROOT, 'bench/baselines', file),
    ],
    cpu: CPU.server,
    env: { PORT: String(port), REFERENCE_DATA_DIR: referenceDataDir, ...env },
    ready: () => answers(`${url}/ready`),
    timeoutMs: 60_000,
  });
  return { ...service, url, inspectPort };
}

export { built };

/**
 * A built worker (`apps/worker/dist/main.js`) on the server CPU, under `keyPrefix`, with the run's secrets and
 * `env` (its buyers file, lender network, system of record). With `metricsPort`, it serves its metrics there and
 * is ready once its `/readyz` answers; without, it is ready as soon as it is spawned.
 */
export function startWorker(
  redisUrl: string,
  keyPrefix: string,
  secrets: Record<string, string>,
  env: Record<string, string>,
  options: { name?: string; metricsPort?: number } = {},
): Promise<Service> {
  const { metricsPort } = options;
  return startService({
    name: options.name ?? 'worker',
    command: process.execPath,
    args: [...productNodeFlags(), built('worker', 'main.js')],
    cpu: CPU.server,
    env: {
      NODE_ENV: 'production',
      LOG_LEVEL: 'warn',
      // The sandbox's buyers answer on the loopback, which production refuses unless listed (ADR 0024).
      BUYER_PRIVATE_RANGES: '127.0.0.0/8',
      REDIS_URL: redisUrl,
      REDIS_KEY_PREFIX: keyPrefix,
      WORKER_METRICS_PORT: String(metricsPort ?? 0),
      ...secrets,
      ...env,
    },
    ...(metricsPort === undefined
      ? { ready: () => true }
      : { ready: () => answers(`http://127.0.0.1:${metricsPort}/readyz`), timeoutMs: 60_000 }),
  });
}

/** A Redis client for the benchmark itself (seeding, publishing, reading results). */
export function redisClient(url: string): Redis {
  return new Redis(url, { maxRetriesPerRequest: 3 });
}
