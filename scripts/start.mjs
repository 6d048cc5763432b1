// `npm start`: builds what is needed and runs the whole product locally at one URL.
// Finds (or starts) Redis, generates development secrets when none are configured, then starts the apps.
// First: an unsupported Node stops here with one line, before any other module loads.
import './node-version.mjs';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createHash } from 'node:crypto';
import { devSecrets } from './dev-secrets.mjs';
import { buildWithProgress, choosePorts, waitUntilReady } from './start-helpers.mjs';
import { LOCAL_POSTGRES_HOST, findPostgres, findRedis } from './services.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.join(root, '.data');
const env = { ...process.env };
const children = [];
/** Stops the services this process found running or started (a found one: nothing to stop). */
const stops = [];

/** `git describe --always --dirty` of this checkout, or undefined outside a git checkout. */
function gitDescribe() {
  const described = spawnSync('git', ['describe', '--always', '--dirty'], { cwd: root, encoding: 'utf8' });
  return described.status === 0 ? described.stdout.trim() : undefined;
}

/** The database URL as printed: a password, if the URL holds one, is never shown. */
function shownDatabaseUrl(url) {
  const parsed = new URL(url);
  if (parsed.password) parsed.password = '***';
  return parsed.toString();
}

function say(message) {
  console.log(`[start] ${message}`);
}

const SECRETS = ['FIELD_ENCRYPTION_KEYS', 'COOKIE_SECRETS', 'SUPPRESSION_HASH_SECRET'];
if (env.NODE_ENV !== 'production' && SECRETS.some((name) => !env[name])) {
  const { secrets, created, file } = devSecrets(dataDir);
  for (const name of SECRETS) env[name] ||= secrets[name];
  say(
    `${created ? 'Generated' : 'Using'} development secrets in ${path.relative(root, file)} (set ${SECRETS.join(', ')} to use your own).`,
  );
}

if (!env.REFERENCE_DATA_DIR) {
  const shared = path.resolve(root, '../shared/data');
  if (existsSync(shared)) {
    env.REFERENCE_DATA_DIR = shared;
    say(`Reading reference data from ${shared}.`);
  } else {
    say(
      'REFERENCE_DATA_DIR is not set: ZIP lookup uses the npm ZIP package, suggestions are empty (see docs/configuration.md).',
    );
  }
}

// Redis: REDIS_URL, else the one at 127.0.0.1:6379, else a private redis-server there (data in .data/redis, AOF on).
try {
  const redis = await findRedis({
    url: env.REDIS_URL || undefined,
    privatePort: Number(new URL(env.REDIS_URL || 'redis://127.0.0.1:6379').port || 6379),
    privateDataDir: path.join(dataDir, 'redis'),
  });
  env.REDIS_URL = redis.url;
  stops.push(redis.stop);
  say(`Redis: ${redis.how}.`);
} catch (error) {
  console.error(`[start] ${error.message}`);
  process.exit(1);
}

// A second copy (another checkout, or this one started twice) finds the first one's ports taken. Unless a port
// is set, it takes a free one and says so, and keeps its Redis keys and queues apart from the first copy's with a
// key prefix of its own (the two copies' development secrets differ: one could not read the other's leads).
const PORTS = [
  { name: 'PORT', preferred: 3000, what: 'the product' },
  { name: 'SANDBOX_PORT', preferred: 4010, what: 'the lender sandbox' },
  { name: 'WORKER_METRICS_PORT', preferred: 9464, what: "the worker's health and metrics" },
];
const { secondCopy } = await choosePorts(env, PORTS, say);
if (secondCopy && !env.REDIS_KEY_PREFIX) {
  env.REDIS_KEY_PREFIX = `funnel-${createHash('sha256').update(root).digest('hex').slice(0, 8)}:`;
  say(
    `Keeping this copy's Redis keys and queues under ${env.REDIS_KEY_PREFIX} (set REDIS_KEY_PREFIX to choose).`,
  );
}

if (env.START_SKIP_BUILD !== '1' && !(await buildWithProgress({ cwd: root, env, say }))) {
  await Promise.all(stops.map((stop) => stop().catch(() => undefined)));
  process.exit(1);
}

// The system of record: DATABASE_URL when set, else the machine's PostgreSQL when one answers at 127.0.0.1:5432,
// else PGlite (PostgreSQL compiled to WebAssembly) in this process with its data in .data/pglite, served on a
// loopback port so the BFF and the worker use it like any PostgreSQL (ADR 0011). START_PGLITE=1 skips the probe.
const database = await findPostgres({
  url: env.DATABASE_URL || undefined,
  variable: 'DATABASE_URL',
  localUrl: `postgres://postgres@${LOCAL_POSTGRES_HOST}/postgres`,
  skipProbe: env.START_PGLITE === '1',
  pgliteDataDir: path.join(dataDir, 'pglite'),
});
env.DATABASE_URL = database.url;
stops.push(database.stop);
say(`System of record: ${database.how}.`);

env.WEB_DIST_DIR ??= path.join(root, 'apps/web/dist');
// Which build this is, for /healthz and funnel_build_info: the checkout's `git describe`, when it is one.
env.APP_VERSION ||= gitDescribe() ?? 'dev';
// On a developer's machine the product answers on the loopback only: its secrets are development ones.
env.HOST ??= '127.0.0.1';
if (env.NODE_ENV !== 'production') env.COOKIE_SECURE ??= 'false';

function run(name, script) {
  const child = spawn(process.execPath, [script], { cwd: root, stdio: 'inherit', env });
  child.on('exit', (code, signal) => {
    if (!shuttingDown) {
      console.error(`[start] ${name} exited (${signal ?? code}); stopping.`);
      stop(1);
    }
  });
  children.push(child);
}

let shuttingDown = false;
function stop(code = 0) {
  if (shuttingDown) return;
  shuttingDown = true;
  for (const child of [...children].reverse()) child.kill('SIGTERM');
  // Give the apps time to finish in-flight work (the worker waits for active jobs).
  Promise.all(
    children.map(
      (child) =>
        new Promise((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', resolve))),
    ),
  )
    .then(() => Promise.all(stops.map((stop) => stop().catch(() => undefined))))
    .then(() => process.exit(code));
  setTimeout(() => process.exit(code), 20_000).unref();
}
process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

const sandboxStarted = !env.LENDER_NETWORK_URL;
if (sandboxStarted) {
  // No lender network configured: the local sandbox plays it, and its sold redirect is a page it serves.
  env.LENDER_NETWORK_URL = `http://127.0.0.1:${env.SANDBOX_PORT}`;
  // It also plays three buyers (config/sandbox-buyers.example.json), which the worker walks as a waterfall with
  // the example buyers file, its addresses moved to this sandbox's port.
  env.SANDBOX_BUYERS_FILE ??= path.join(root, 'config/sandbox-buyers.example.json');
  if (!env.BUYERS_FILE) {
    const example = JSON.parse(readFileSync(path.join(root, 'config/buyers.example.json'), 'utf8'));
    for (const buyer of example.buyers) {
      buyer.baseUrl = buyer.baseUrl.replace('//127.0.0.1:4010/', `//127.0.0.1:${env.SANDBOX_PORT}/`);
    }
    mkdirSync(dataDir, { recursive: true });
    const suffix = env.SANDBOX_PORT === '4010' ? '' : `-${env.SANDBOX_PORT}`;
    env.BUYERS_FILE = path.join(dataDir, `buyers.local${suffix}.json`);
    writeFileSync(env.BUYERS_FILE, JSON.stringify(example, null, 2));
  }
  run('lender-sandbox', 'apps/lender-sandbox/dist/server.js');
  say(`No LENDER_NETWORK_URL set: the lender sandbox answers at ${env.LENDER_NETWORK_URL}.`);
  say(`Buyers: ${path.relative(root, env.BUYERS_FILE)}, played by the sandbox under /buyers/{id}.`);
}
run('worker', 'apps/worker/dist/main.js');
run('bff', 'apps/bff/dist/server.js');

// Said only once every app answers its readiness check, so the address printed is one that works.
const port = env.PORT;
const readiness = [`http://127.0.0.1:${port}/readyz`];
if (env.WORKER_METRICS_PORT !== '0') readiness.push(`http://127.0.0.1:${env.WORKER_METRICS_PORT}/readyz`);
if (sandboxStarted) readiness.push(`${env.LENDER_NETWORK_URL}/readyz`);
try {
  if (await waitUntilReady(readiness, { isStopping: () => shuttingDown })) {
    const site = `http://localhost:${port}`;
    say(`Ready. Open:
  ${site}/            the borrower's funnel
  ${site}/operator    the operator console
  ${site}/api/docs    the REST API
The first operator account (once; it prints a set-up link):
  DATABASE_URL='${shownDatabaseUrl(env.DATABASE_URL)}' npm run operator:create-admin -- --email you@example.com --name "Your Name" --base-url ${site}
Ctrl-C stops it.`);
  }
} catch (error) {
  console.error(`[start] The apps did not get ready: ${error.message}; stopping.`);
  stop(1);
}
