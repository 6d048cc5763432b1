import { createHash, randomUUID } from 'node:crypto';
import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import { evalScript } from './redis-script.js';

describe('evalScript on real Redis', () => {
  const prefix = testKeyPrefix('redis-script');
  let redis: Redis;

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'));
  });
  afterAll(async () => {
    await deleteKeys(redis, prefix);
    await redis.quit();
  });

  it('runs a script Redis has never seen, then calls it by its SHA1', async () => {
    // A script text no server has cached yet, so the first call meets NOSCRIPT.
    const script = `-- ${randomUUID()}\nreturn redis.call('INCRBY', KEYS[1], ARGV[1])`;
    const sha = createHash('sha1').update(script).digest('hex');
    expect(await redis.script('EXISTS', sha)).toEqual([0]);

    expect(await evalScript(redis, script, 1, `${prefix}n`, 2)).toBe(2);
    expect(await redis.script('EXISTS', sha)).toEqual([1]);
    expect(await evalScript(redis, script, 1, `${prefix}n`, 3)).toBe(5);
  });

  it("passes on the script's own errors", async () => {
    const script = `-- ${randomUUID()}\nreturn redis.error_reply('NOPE it failed')`;
    await expect(evalScript(redis, script, 0)).rejects.toThrow('NOPE it failed');
  });
});
