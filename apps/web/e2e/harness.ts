// The browser-test harness: real Redis, the built apps as child processes, the machine's Chromium (CHROMIUM_PATH,
// else found as scripts/chromium.mjs says) through playwright-core. Later suites start more processes (the worker,
// the lender sandbox) with `harness.start`, sharing the harness's Redis prefix and secrets through `harness.config`.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Redis } from 'ioredis';
import { chromium, type Browser, type BrowserContext } from 'playwright-core';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import { chromiumPath } from '../../../scripts/chromium.mjs';

export const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

// A BFF reads the reference data (ZIP directory, name and job-title suggestions) before it answers: with every CI
// stage sharing two cores, a start took over a minute, and a file whose `before` fails fails every test in it.
const READY_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 5_000;
const OUTPUT_LINES_KEPT = 200;

const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
];

/** The Redis the tests run against. Browser tests never mock it, so without one they stop here. */
export function requireRedisUrl(): string {
  const url = process.env.REDIS_URL;
  if (!url) {
    throw new Error(
      'REDIS_URL is not set. Browser tests need a real Redis, e.g. `export REDIS_URL=redis://127.0.0.1:6379`.',
    );
  }
  return url;
}

/** A TCP port nobody listens on right now. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

/** Configuration every process of one harness shares, so they see the same leads. */
export interface HarnessConfig {
  redisUrl: string;
  /** Unique per harness; every key the processes write lives under it and is deleted at the end. */
  keyPrefix: string;
  fieldEncryptionKeys: string;
  cookieSecrets: string;
  suppressionHashSecret: string;
  referenceDataDir: string;
}

export interface ProcessSpec {
  name: string;
  /** The compiled entry point, relative to the repository root (e.g. 'apps/bff/dist/server.js'). */
  entry: string;
  env: Record<string, string>;
  /** When given, the process counts as started once GET `readyUrl` answers 2xx. */
  readyUrl?: string;
}

export interface ManagedProcess {
  name: string;
  /** The last lines the process printed, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

/** Starts a built Node program and waits until it is ready; fails with its output if it exits or hangs. */
export async function startProcess(spec: ProcessSpec): Promise<ManagedProcess> {
  const entry = path.resolve(repoRoot, spec.entry);
  if (!existsSync(entry))
    throw new Error(`${spec.name}: ${spec.entry} is missing. Run \`npx turbo run build\` first.`);
  const child = spawn(process.execPath, [entry], {
    cwd: repoRoot,
    env: { ...process.env, ...spec.env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString().split('\n').filter(Boolean));
    lines.splice(0, Math.max(0, lines.length - OUTPUT_LINES_KEPT));
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let running = true;
  void exited.then(() => {
    running = false;
  });

  const managed: ManagedProcess = {
    name: spec.name,
    output: () => lines.join('\n'),
    async stop() {
      if (!running) return;
      child.kill('SIGTERM');
      const stopped = await Promise.race([exited.then(() => true), delay(STOP_TIMEOUT_MS).then(() => false)]);
      if (!stopped) {
        child.kill('SIGKILL');
        await exited;
      }
    },
  };

  if (spec.readyUrl) {
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      if (!running) throw new Error(`${spec.name} exited before it was ready:\n${managed.output()}`);
      if (Date.now() > deadline) {
        await managed.stop();
        throw new Error(`${spec.name} was not ready within ${READY_TIMEOUT_MS} ms:\n${managed.output()}`);
      }
      const ok = await fetch(spec.readyUrl).then(
        (response) => response.ok,
        () => false,
      );
      if (ok) break;
      await delay(200);
    }
  }
  return managed;
}

export interface Harness {
  config: HarnessConfig;
  /** Where the BFF serves the web app and the API. */
  baseUrl: string;
  /** A connection of the tests' own, for assertions on what was stored. */
  redis: Redis;
  browser: Browser;
  /** A fresh browser profile (own cookies) at `width` × 900. */
  newContext(width?: number): Promise<BrowserContext>;
  /** Starts another process for the rest of the suite; it is stopped by `close`. */
  start(spec: ProcessSpec): Promise<ManagedProcess>;
  close(): Promise<void>;
}

export interface HarnessOptions {
  /** Names the key prefix, so leftovers of a crashed run can be traced to their suite. */
  label: string;
  /** Extra BFF environment (e.g. a lender-network URL in later suites). */
  bffEnv?: Record<string, string>;
  /** The BFF's port, when a suite must know it before the BFF starts (e.g. to register its OIDC callback). */
  port?: number;
}

/** Starts the built BFF (serving the built web app) on a free port, and Chromium. */
export async function startHarness({
  label,
  bffEnv = {},
  port: chosenPort,
}: HarnessOptions): Promise<Harness> {
  const config: HarnessConfig = {
    redisUrl: requireRedisUrl(),
    keyPrefix: testKeyPrefix(`e2e-${label}`),
    fieldEncryptionKeys: `e2e:${randomBytes(32).toString('base64')}`,
    cookieSecrets: randomBytes(32).toString('hex'),
    suppressionHashSecret: randomBytes(32).toString('hex'),
    referenceDataDir: process.env.REFERENCE_DATA_DIR ?? path.resolve(repoRoot, '../shared/data'),
  };
  const webDist = path.join(repoRoot, 'apps/web/dist');
  if (!existsSync(path.join(webDist, 'index.html'))) {
    throw new Error('apps/web/dist is missing. Run `npx turbo run build` first.');
  }

  const redis = new Redis(config.redisUrl, { lazyConnect: true, maxRetriesPerRequest: 1 });
  await redis.connect();
  const processes: ManagedProcess[] = [];
  let browser: Browser | undefined;

  const close = async () => {
    await browser?.close().catch(() => undefined);
    for (const managed of processes.reverse()) await managed.stop();
    await deleteKeys(redis, config.keyPrefix);
    redis.disconnect();
  };

  try {
    const port = chosenPort ?? (await freePort());
    const baseUrl = `http://127.0.0.1:${port}`;
    const bff = await startProcess({
      name: 'bff',
      entry: 'apps/bff/dist/server.js',
      readyUrl: `${baseUrl}/readyz`,
      env: {
        NODE_ENV: 'test',
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'warn',
        REDIS_URL: config.redisUrl,
        REDIS_KEY_PREFIX: config.keyPrefix,
        FIELD_ENCRYPTION_KEYS: config.fieldEncryptionKeys,
        COOKIE_SECRETS: config.cookieSecrets,
        SUPPRESSION_HASH_SECRET: config.suppressionHashSecret,
        COOKIE_SECURE: 'false',
        WEB_DIST_DIR: webDist,
        REFERENCE_DATA_DIR: config.referenceDataDir,
        // Every test shares one IP; the per-IP limits would otherwise throttle a suite that types a lot.
        RATE_LIMIT_MAX: '100000',
        // Every test submits the same fictitious borrower; duplicate detection has its own integration tests.
        DUPLICATE_WINDOW_DAYS: '0',
        // Consoles signed in on a password alone, whatever the role; operator-second-factor.e2e.ts sets the
        // roles that must enrol first (ADR 0023).
        OPERATOR_SECOND_FACTOR_ROLES: 'none',
        ...bffEnv,
      },
    });
    processes.push(bff);
    browser = await chromium.launch({
      executablePath: chromiumPath(),
      args: CHROMIUM_ARGS,
    });
    const launched = browser;
    return {
      config,
      baseUrl,
      redis,
      browser: launched,
      newContext: (width = 1280) =>
        launched.newContext({ baseURL: baseUrl, viewport: { width, height: 900 } }),
      async start(spec) {
        const managed = await startProcess(spec);
        processes.push(managed);
        return managed;
      },
      close,
    };
  } catch (error) {
    await close();
    throw error;
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
