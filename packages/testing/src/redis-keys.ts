import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';

/** A key prefix no other test (or run) shares. */
export function testKeyPrefix(label: string): string {
  return `test:${label}:${randomBytes(4).toString('hex')}:`;
}

/** Deletes every key under `prefix`. */
export async function deleteKeys(redis: Redis, prefix: string): Promise<number> {
  let cursor = '0';
  let deleted = 0;
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    if (keys.length > 0) deleted += await redis.unlink(...keys);
  } while (cursor !== '0');
  return deleted;
}

/** Every key under `prefix`, for assertions on what was stored. */
export async function keysUnder(redis: Redis, prefix: string): Promise<string[]> {
  const found: string[] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${prefix}*`, 'COUNT', 500);
    cursor = next;
    found.push(...keys);
  } while (cursor !== '0');
  return found;
}
