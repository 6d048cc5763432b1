import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { createRedis, redisConnectionFromEnv } from '@funnel/server-runtime/redis-connection';
import { testEnv } from '@funnel/testing/env';
import { freePort } from '@funnel/testing/processes';
import { until } from '@funnel/testing/until';

// Real redis-server processes on loopback (never 6379): a primary with an ACL user, a replica and three Sentinels,
// and a TLS-only server signed by a throwaway CA. Everything a test starts is killed and its temp dir removed in
// afterEach, whether the test passed or not.

const USER = 'funnel-app';
const PASSWORD = 'sentinel-test-secret-7f3a';
// One config line per `--user`, its rules as separate arguments: the default user off, the app's user on.
const ACL = ['--user', 'default', 'off', '--user', USER, 'on', `>${PASSWORD}`, '~*', '&*', '+@all'];

const children: ChildProcess[] = [];
const clients: Redis[] = [];
const dirs: string[] = [];

afterEach(async () => {
  for (const client of clients.splice(0)) client.disconnect();
  const running = children.splice(0).filter((child) => child.exitCode === null && child.signalCode === null);
  await Promise.all(
    running.map((child) => {
      const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
      child.kill('SIGKILL');
      return exited;
    }),
  );
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), 'funnel-redis-conn-'));
  dirs.push(dir);
  return dir;
}

function redisServer(args: string[]): ChildProcess {
  const child = spawn('redis-server', args, { stdio: 'ignore' });
  children.push(child);
  return child;
}

function client(env: Record<string, string>, purpose: 'blocking' | 'requests' | 'script'): Redis {
  const redis = createRedis(redisConnectionFromEnv(env), purpose);
  redis.on('error', () => undefined);
  clients.push(redis);
  return redis;
}

/** A direct connection to one node as the ACL user, to look at it from outside the factory. */
function direct(port: number): Redis {
  return client({ REDIS_URL: `redis://${USER}:${PASSWORD}@127.0.0.1:${port}` }, 'blocking');
}

describe('Redis through Sentinel, with an ACL user', () => {
  it('follows a kill -9 of the primary to the promoted replica without a restart', async () => {
    const dir = tempDir();
    const [primaryPort, replicaPort, ...sentinelPorts] = await Promise.all(
      Array.from({ length: 5 }, () => freePort()),
    );
    const node = (port: number) => [
      '--bind',
      '127.0.0.1',
      '--port',
      String(port),
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      '--dbfilename',
      `dump-${port}.rdb`,
      ...ACL,
      '--masteruser',
      USER,
      '--masterauth',
      PASSWORD,
    ];
    const primary = redisServer(node(primaryPort!));
    redisServer([...node(replicaPort!), '--replicaof', '127.0.0.1', String(primaryPort)]);
    const replica = direct(replicaPort!);
    await until(
      'the replica to sync',
      async () => {
        const info = await replica.info('replication');
        return info.includes('master_link_status:up') ? true : undefined;
      },
      { timeoutMs: 10_000, intervalMs: 100 },
    );

    for (const port of sentinelPorts) {
      const config = path.join(dir, `sentinel-${port}.conf`);
      writeFileSync(
        config,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${dir}`,
          `sentinel monitor mymaster 127.0.0.1 ${primaryPort} 2`,
          `sentinel auth-user mymaster ${USER}`,
          `sentinel auth-pass mymaster ${PASSWORD}`,
          'sentinel down-after-milliseconds mymaster 1000',
          'sentinel failover-timeout mymaster 10000',
          '',
        ].join('\n'),
      );
      redisServer([config, '--sentinel']);
    }
    // Each Sentinel knows the replica and the two other Sentinels (hello messages every 2 s) before the kill.
    for (const port of sentinelPorts) {
      const sentinel = client({ REDIS_URL: `redis://127.0.0.1:${port}` }, 'blocking');
      await until(
        `sentinel ${port} to see the replica and its peers`,
        async () => {
          const fields = (await sentinel.call('SENTINEL', 'MASTER', 'mymaster')) as string[];
          const at = (name: string) => fields[fields.indexOf(name) + 1];
          return at('num-slaves') === '1' && at('num-other-sentinels') === '2' ? true : undefined;
        },
        { timeoutMs: 15_000, intervalMs: 100 },
      );
    }

    const env = {
      // The host is not used in Sentinel mode; the user and password are.
      REDIS_URL: `redis://${USER}:${PASSWORD}@sentinel-named-primary:6379`,
      REDIS_SENTINELS: sentinelPorts.map((port) => `127.0.0.1:${port}`).join(','),
      REDIS_SENTINEL_NAME: 'mymaster',
    };
    const queueConnection = client(env, 'blocking');
    const requestConnection = client(env, 'requests');
    await requestConnection.connect();
    await queueConnection.set('before', 'kill');
    await requestConnection.set('before-requests', 'kill');
    // Replicated before the kill, so the check below is about following the failover, not about lost writes.
    expect(await queueConnection.wait(1, 2000)).toBe(1);

    const gone = new Promise<void>((resolve) => primary.once('exit', () => resolve()));
    primary.kill('SIGKILL');
    await gone;

    // The BullMQ-style connection waits (no retry limit) and its write lands on the promoted replica.
    const write = queueConnection.set('after', 'failover');
    await expect(
      Promise.race([
        write,
        new Promise((_, reject) => setTimeout(() => reject(new Error('no write within 25 s')), 25_000)),
      ]),
    ).resolves.toBe('OK');
    // The fail-fast request connection errors meanwhile, then writes again once it follows.
    await until(
      'the request connection to write again',
      () => requestConnection.set('after-requests', 'failover'),
      { timeoutMs: 10_000, intervalMs: 100 },
    );

    expect(((await replica.call('ROLE')) as unknown[])[0]).toBe('master');
    expect(await replica.mget('before', 'before-requests', 'after', 'after-requests')).toEqual([
      'kill',
      'kill',
      'failover',
      'failover',
    ]);
    // The same connection objects, still ready: nothing was restarted.
    expect(queueConnection.status).toBe('ready');
  }, 45_000);
});

describe('Redis over TLS', () => {
  it('connects with rediss:// and the private CA from REDIS_TLS_CA_FILE, and refuses the server without it', async () => {
    const dir = tempDir();
    const file = (name: string) => path.join(dir, name);
    const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'ignore' });
    openssl(
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '1',
      '-subj',
      '/CN=funnel test CA',
      '-keyout',
      file('ca.key'),
      '-out',
      file('ca.crt'),
    );
    openssl(
      'req',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-subj',
      '/CN=127.0.0.1',
      '-keyout',
      file('server.key'),
      '-out',
      file('server.csr'),
    );
    writeFileSync(file('san.ext'), 'subjectAltName=IP:127.0.0.1\n');
    openssl(
      'x509',
      '-req',
      '-in',
      file('server.csr'),
      '-CA',
      file('ca.crt'),
      '-CAkey',
      file('ca.key'),
      '-CAcreateserial',
      '-days',
      '1',
      '-extfile',
      file('san.ext'),
      '-out',
      file('server.crt'),
    );

    const port = await freePort();
    redisServer([
      '--bind',
      '127.0.0.1',
      '--port',
      '0',
      '--tls-port',
      String(port),
      '--tls-cert-file',
      file('server.crt'),
      '--tls-key-file',
      file('server.key'),
      '--tls-ca-cert-file',
      file('ca.crt'),
      '--tls-auth-clients',
      'no',
      '--save',
      '',
      '--appendonly',
      'no',
      '--dir',
      dir,
      ...ACL,
    ]);
    const url = `rediss://${USER}:${PASSWORD}@127.0.0.1:${port}`;
    const redis = client({ REDIS_URL: url, REDIS_TLS_CA_FILE: file('ca.crt') }, 'script');
    await until('the TLS server to answer', () => redis.ping(), { timeoutMs: 10_000, intervalMs: 100 });
    expect(await redis.set('over', 'tls')).toBe('OK');
    expect(await redis.acl('WHOAMI')).toBe(USER);

    // Without the CA, the server's certificate is not trusted: no connection, and no password in the error.
    const untrusted = createRedis(redisConnectionFromEnv({ REDIS_URL: url }), 'script', {
      lazyConnect: true,
      retryStrategy: () => null,
    });
    clients.push(untrusted);
    const errors: string[] = [];
    untrusted.on('error', (err: Error) => errors.push(err.message));
    await expect(untrusted.connect()).rejects.toThrow();
    expect(errors.join('\n')).toMatch(/certificate/i);
    expect(errors.join('\n')).not.toContain(PASSWORD);
  }, 30_000);
});

describe('a connection ioredis ends by itself', () => {
  it('connects again, losing no command, when told to reconnect while asking a Sentinel for the primary; not after its owner ends it', async () => {
    const redisUrl = new URL(testEnv.redisUrl ?? 'redis://127.0.0.1:6379');
    // A Sentinel that names the test's Redis as the primary, as slowly as the test says: the window in which a
    // reconnect arrives while the connection is still asking (a failover on a loaded machine).
    let answerAfterMs = 0;
    const sentinel = createServer((socket) => {
      socket.on('data', (chunk) => {
        for (const command of chunk.toString().split('*').slice(1)) {
          const words = command.split('\r\n').filter((_, i) => i % 2 === 0 && i > 0);
          const reply =
            words[0]?.toLowerCase() === 'sentinel' && words[1]?.toLowerCase() === 'get-master-addr-by-name'
              ? `*2\r\n$${redisUrl.hostname.length}\r\n${redisUrl.hostname}\r\n$${redisUrl.port.length}\r\n${redisUrl.port}\r\n`
              : words[0]?.toLowerCase() === 'sentinel'
                ? '*0\r\n'
                : '+OK\r\n';
          setTimeout(() => socket.writable && socket.write(reply), answerAfterMs);
        }
      });
    });
    const port = await freePort();
    await new Promise<void>((resolve) => sentinel.listen(port, '127.0.0.1', resolve));
    try {
      const redis = createRedis(
        redisConnectionFromEnv({
          REDIS_URL: 'redis://sentinel-named-primary:6379',
          REDIS_SENTINELS: `127.0.0.1:${port}`,
          REDIS_SENTINEL_NAME: 'mymaster',
        }),
        'blocking',
        // This Sentinel publishes nothing: no failover detector subscribing to it.
        { failoverDetector: false },
      );
      redis.on('error', () => undefined);
      clients.push(redis);
      let ended = 0;
      redis.on('end', () => (ended += 1));
      await until('the first connection', () => redis.status === 'ready');

      answerAfterMs = 600;
      redis.disconnect(true);
      await until('the reconnection to ask the Sentinel', () => redis.status === 'connecting');
      // A write given meanwhile waits for the connection, as BullMQ's do during a failover; so does one given the
      // moment the connection has ended.
      const key = `redis-connection-test:${process.pid}:${Date.now()}`;
      const waiting = redis.set(key, 'kept', 'EX', 60);
      let givenAfterEnd: Promise<string | null> | undefined;
      redis.once('end', () => {
        givenAfterEnd = redis.get(key);
      });
      redis.disconnect(true);
      // ioredis ends the connection (the race, seen), then it connects again and sends what waited.
      await until('the connection to end', () => ended >= 1, { timeoutMs: 5_000 });
      answerAfterMs = 0;
      expect(await waiting).toBe('OK');
      expect(await givenAfterEnd).toBe('kept');
      expect(await redis.del(key)).toBe(1);

      // Its owner's disconnect is final.
      redis.disconnect();
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(redis.status).toBe('end');
      await expect(redis.ping()).rejects.toThrow('Connection is closed.');
    } finally {
      sentinel.close();
    }
  });
});
