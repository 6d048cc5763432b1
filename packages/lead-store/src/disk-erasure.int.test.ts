// The compaction pass against redis-servers of the test's own (the shared Redis is never rewritten): a burst of
// erasures costs one rewrite, a snapshot in progress makes the pass wait its turn, an erasure made during a rewrite
// waits for the next, and a Redis that keeps nothing on disk has nothing to rewrite.
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { Redis } from 'ioredis';
import { afterEach, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@funnel/testing/processes';
import { DiskErasure } from './disk-erasure.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('DiskErasure', () => {
  const cleanup: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const step of cleanup.splice(0).reverse()) await step();
  });

  async function server(options: { aof: boolean }): Promise<{ redis: Redis; dir: string }> {
    const dir = mkdtempSync(path.join(tmpdir(), 'disk-erasure-'));
    const redisServer: RedisServer = await startRedisServer(
      options.aof ? { aofDir: dir, snapshots: true } : {},
    );
    const redis = new Redis(redisServer.url);
    cleanup.push(async () => {
      await redis.quit();
      await redisServer.kill();
      rmSync(dir, { recursive: true, force: true });
    });
    return { redis, dir };
  }

  const filesText = (dir: string) =>
    ['', 'appendonlydir']
      .flatMap((sub) => {
        try {
          return readdirSync(path.join(dir, sub)).map((name) => path.join(dir, sub, name));
        } catch {
          return [];
        }
      })
      .filter((file) => !file.endsWith('appendonlydir'))
      .map((file) => readFileSync(file).toString('latin1'))
      .join('\n');

  it('rewrites the AOF and the snapshot once for a burst of erasures, and only then clears the mark', async () => {
    const { redis, dir } = await server({ aof: true });
    const disk = new DiskErasure(redis, { keyPrefix: 't:' });
    expect(await disk.compact()).toBe('idle');

    await redis.set('t:lead:a', 'erased-person-canary');
    await redis.bgsave();
    await sleep(500);
    await redis.del('t:lead:a');
    await disk.markErased();
    await disk.markErased();
    expect(filesText(dir)).toContain('erased-person-canary');

    expect(await disk.compact()).toBe('rewritten');
    expect(await disk.pendingSince()).toBeUndefined();
    expect(filesText(dir)).not.toContain('erased-person-canary');
    expect(await disk.compact()).toBe('idle');
  });

  it('waits its turn while a snapshot is being written, then rewrites', async () => {
    const { redis } = await server({ aof: true });
    const disk = new DiskErasure(redis, { keyPrefix: 't:' });
    for (let i = 0; i < 200; i++) await redis.set(`t:filler:${i}`, 'x');
    await redis.config('SET', 'rdb-key-save-delay', '10000'); // 10 ms a key: a 2 s snapshot
    await redis.bgsave();
    await disk.markErased();
    expect(await disk.compact()).toBe('busy');
    expect(await disk.pendingSince()).toBeGreaterThan(0);
    await redis.config('SET', 'rdb-key-save-delay', '0');
    for (let i = 0; i < 100 && (await disk.compact()) === 'busy'; i++) await sleep(200);
    expect(await disk.pendingSince()).toBeUndefined();
  });

  it('keeps the mark of an erasure made while the rewrite ran, for the next pass', async () => {
    const { redis } = await server({ aof: true });
    const disk = new DiskErasure(redis, { keyPrefix: 't:' });
    for (let i = 0; i < 200; i++) await redis.set(`t:filler:${i}`, 'x');
    await redis.config('SET', 'rdb-key-save-delay', '2000'); // the rewrite's snapshot takes ~0.4 s
    await disk.markErased();
    const pass = disk.compact();
    await sleep(150);
    await disk.markErased(); // after the rewrite started: not covered by it
    expect(await pass).toBe('rewritten');
    expect(await disk.pendingSince()).toBeGreaterThan(0);
    await redis.config('SET', 'rdb-key-save-delay', '0');
    expect(await disk.compact()).toBe('rewritten');
    expect(await disk.pendingSince()).toBeUndefined();
  });

  it('has nothing to rewrite on a Redis that keeps nothing on disk', async () => {
    const { redis } = await server({ aof: false });
    const disk = new DiskErasure(redis, { keyPrefix: 't:' });
    await disk.markErased();
    expect(await disk.compact()).toBe('no-persistence');
    expect(await disk.pendingSince()).toBeUndefined();
  });
});
