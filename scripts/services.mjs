// The one way this repository finds its Redis and PostgreSQL, or starts them: `npm start` (start.mjs), `npm test`
// (test.mjs, through test-services.mjs) and vitest's global setup all call it, so a newcomer's `npm start`,
// `npm test` and `npx vitest run <file>` end up on the same services. Every server it starts binds 127.0.0.1 and
// is stopped by the `stop()` it returns (and killed when this process exits).
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';

export const LOCAL_REDIS_URL = 'redis://127.0.0.1:6379';
export const LOCAL_POSTGRES_HOST = '127.0.0.1:5432';

/** True when something at `url` answers PING with PONG (or asks for a password) within a second. */
export function redisAnswers(url) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const socket = net.connect({ host: hostname, port: Number(port || 6379) });
    const done = (ok) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(1000, () => done(false));
    socket.once('error', () => done(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (data) =>
      done(data.toString().startsWith('+PONG') || data.toString().startsWith('-NOAUTH')),
    );
  });
}

/** True when the PostgreSQL at `url` accepts a connection and answers `select 1` within 1.5 s. */
export async function postgresAnswers(url) {
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: url, connectionTimeoutMillis: 1500 });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.query('select 1');
    return true;
  } catch {
    return false;
  } finally {
    await client.end().catch(() => undefined);
  }
}

export function hasRedisServer() {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/** A TCP port on 127.0.0.1 nothing listens on right now. */
export function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/** Kills `child` (SIGTERM, then SIGKILL after `graceMs`) and resolves once it has exited. */
function stopChild(child, graceMs = 5000) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve();
    });
    child.kill('SIGTERM');
  });
}

/**
 * Starts a private redis-server bound to 127.0.0.1 on `port` (0: a free one). With `dataDir` it keeps its data
 * there with AOF on (`npm start`); without, it runs in a temporary directory that `stop()` removes, keeping
 * nothing (tests). Resolves once it answers.
 */
export async function startPrivateRedis({ port = 0, dataDir } = {}) {
  const dir = dataDir ?? mkdtempSync(path.join(os.tmpdir(), 'funnel-redis-'));
  mkdirSync(dir, { recursive: true });
  const listen = port || (await freePort());
  const persistence = dataDir
    ? ['--appendonly', 'yes', '--appendfsync', 'everysec', '--maxmemory-policy', 'noeviction']
    : ['--appendonly', 'no'];
  const child = spawn(
    'redis-server',
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(listen),
      '--dir',
      path.resolve(dir),
      '--save',
      '',
      ...persistence,
    ],
    { stdio: 'ignore' },
  );
  const killOnExit = () => child.kill('SIGKILL');
  process.once('exit', killOnExit);
  const stop = async () => {
    process.off('exit', killOnExit);
    await stopChild(child);
    if (!dataDir) rmSync(dir, { recursive: true, force: true });
  };
  const url = `redis://127.0.0.1:${listen}`;
  for (let i = 0; i < 100; i++) {
    if (child.exitCode !== null) break;
    if (await redisAnswers(url)) return { url, child, stop };
    await new Promise((r) => setTimeout(r, 100));
  }
  await stop();
  throw new Error(`redis-server did not answer on 127.0.0.1:${listen}`);
}

const hostOf = (url) => new URL(url).host;
const shown = (dir) => path.relative(process.cwd(), dir) || dir;
const firstLine = (error) => String(error?.message ?? error).split('\n')[0];

/**
 * The Redis to use, in this order:
 * 1. `url` (REDIS_URL) when given. `strict`: it must answer (tests); otherwise a silent one is replaced by a
 *    private redis-server on its port (`npm start`).
 * 2. The Redis answering at 127.0.0.1:6379.
 * 3. A private redis-server (see startPrivateRedis) when the binary exists.
 * 4. With `containers`, a Redis 7 container through testcontainers (a machine with a Docker engine only).
 * Resolves to `{ url, how, stop }`: `how` says which, in words, for the one line the caller prints.
 */
export async function findRedis({
  url,
  strict = false,
  privatePort,
  privateDataDir,
  containers = false,
} = {}) {
  const nothing = async () => {};
  const candidate = url || LOCAL_REDIS_URL;
  if (await redisAnswers(candidate)) {
    const how = url
      ? `the Redis at REDIS_URL (${hostOf(url)})`
      : `the Redis answering at ${hostOf(candidate)}`;
    return { url: candidate, how, stop: nothing };
  }
  if (url && strict) throw new Error(`REDIS_URL is set to ${url}, but no Redis answers there.`);
  const silence = `nothing answered at ${hostOf(candidate)}`;
  if (hasRedisServer()) {
    const port = privatePort ?? (url ? Number(new URL(url).port || 6379) : 0);
    const redis = await startPrivateRedis({ port, dataDir: privateDataDir });
    const where = privateDataDir
      ? `data in ${shown(privateDataDir)}, AOF on`
      : 'data in a temporary directory';
    return {
      url: redis.url,
      how: `a private redis-server at ${hostOf(redis.url)} (${silence}; ${where})`,
      stop: redis.stop,
    };
  }
  if (containers) {
    try {
      const { RedisContainer } = await import('@testcontainers/redis');
      const container = await new RedisContainer('redis:7-alpine').start();
      return {
        url: container.getConnectionUrl(),
        how: `a testcontainers Redis at ${hostOf(container.getConnectionUrl())} (${silence}; no redis-server binary)`,
        stop: () => container.stop().then(nothing),
      };
    } catch (error) {
      throw new Error(`${NO_REDIS_MESSAGE}\n  (testcontainers: ${firstLine(error)})`, { cause: error });
    }
  }
  throw new Error(NO_REDIS_MESSAGE);
}

export const NO_REDIS_MESSAGE =
  'No Redis answers at 127.0.0.1:6379 and no redis-server binary was found.\n' +
  '  Install one (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis),\n' +
  '  or point REDIS_URL at a running Redis 7.';

/**
 * The PostgreSQL to use, in this order:
 * 1. `url` (DATABASE_URL / TEST_DATABASE_URL) when given, as it is.
 * 2. The PostgreSQL answering at 127.0.0.1:5432 (`localUrl` names the database), unless `skipProbe`.
 * 3. With `containers`, a PostgreSQL container through testcontainers, where a container engine answers.
 * 4. PGlite (PostgreSQL compiled to WebAssembly) in this process, served on a free loopback port
 *    (packages/db/src/pglite-server.ts, ADR 0011): data in `pgliteDataDir`, or in memory without one.
 *    `loadPglite` imports that module: vitest's setup passes its own import, which vite resolves to the source.
 * Resolves to `{ url, how, stop }`.
 */
export async function findPostgres({
  url,
  variable,
  localUrl,
  skipProbe = false,
  containers = false,
  pgliteDataDir,
  loadPglite = () => import('@funnel/db/pglite-server'),
}) {
  const nothing = async () => {};
  if (url) return { url, how: `the PostgreSQL at ${variable} (${hostOf(url)})`, stop: nothing };
  const why = [];
  if (skipProbe) why.push('as START_PGLITE=1 asks');
  else if (await postgresAnswers(localUrl)) {
    return { url: localUrl, how: `the PostgreSQL answering at ${hostOf(localUrl)}`, stop: nothing };
  } else why.push(`nothing answered at ${hostOf(localUrl)}`);
  if (containers && !skipProbe) {
    try {
      const { PostgreSqlContainer } = await import('@testcontainers/postgresql');
      const container = await new PostgreSqlContainer('postgres:16-alpine').start();
      return {
        url: container.getConnectionUri(),
        how: `a testcontainers PostgreSQL at ${container.getHost()}:${container.getPort()} (${why[0]})`,
        stop: () => container.stop().then(nothing),
      };
    } catch (error) {
      why.push(`no container: ${firstLine(error)}`);
    }
  }
  const { startPgliteServer } = await loadPglite();
  const pglite = await startPgliteServer(pgliteDataDir ? { dataDir: pgliteDataDir } : {});
  const where = pgliteDataDir ? `data in ${shown(pgliteDataDir)}` : 'in memory';
  return {
    url: pglite.url,
    how: `PGlite (embedded PostgreSQL, ${where}) at ${hostOf(pglite.url)} (${why.join('; ')})`,
    stop: pglite.stop,
  };
}

/**
 * The services the tests use: Redis and PostgreSQL found as above, with the tests' defaults (REDIS_URL must answer
 * when set; the database `test` at 127.0.0.1:5432; testcontainers as the last step before PGlite; nothing kept on
 * disk). `line` is the one line to print.
 */
export async function findTestServices(env = process.env, { loadPglite } = {}) {
  const redis = await findRedis({ url: env.REDIS_URL || undefined, strict: true, containers: true });
  try {
    const postgres = await findPostgres({
      url: env.TEST_DATABASE_URL || undefined,
      variable: 'TEST_DATABASE_URL',
      localUrl: `postgres://postgres@${LOCAL_POSTGRES_HOST}/test`,
      containers: true,
      loadPglite,
    });
    return {
      redisUrl: redis.url,
      databaseUrl: postgres.url,
      line: `Test services: Redis: ${redis.how}. PostgreSQL: ${postgres.how}.`,
      async stop() {
        await postgres.stop();
        await redis.stop();
      },
    };
  } catch (error) {
    await redis.stop();
    throw error;
  }
}
