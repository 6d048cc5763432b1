// Finds a Redis for local runs and tests: the one at REDIS_URL if it answers, otherwise a private
// redis-server started under .data/ with AOF on. Used by start.mjs and test.mjs only.
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const DEFAULT_REDIS_URL = 'redis://127.0.0.1:6379';

/** True when something at `url` answers PING with PONG within a second. */
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

export function hasRedisServer() {
  return spawnSync('redis-server', ['--version'], { stdio: 'ignore' }).status === 0;
}

/**
 * Starts a private redis-server bound to 127.0.0.1 on `port`, keeping its data (AOF) under `dataDir`.
 * Resolves once it answers; the child dies with this process.
 */
export async function startPrivateRedis({ port, dataDir }) {
  mkdirSync(dataDir, { recursive: true });
  const child = spawn(
    'redis-server',
    [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--dir',
      path.resolve(dataDir),
      '--appendonly',
      'yes',
      '--appendfsync',
      'everysec',
      '--maxmemory-policy',
      'noeviction',
      '--save',
      '',
    ],
    { stdio: 'ignore' },
  );
  const url = `redis://127.0.0.1:${port}`;
  for (let i = 0; i < 50; i++) {
    if (await redisAnswers(url)) return { url, child };
    await new Promise((r) => setTimeout(r, 100));
  }
  child.kill();
  throw new Error(`redis-server did not answer on port ${port}`);
}

export const NO_REDIS_MESSAGE =
  'No Redis answers and no redis-server binary was found.\n' +
  '  Install one (Debian/Ubuntu: apt-get install redis-server; macOS: brew install redis),\n' +
  '  or point REDIS_URL at a running Redis 7.';
