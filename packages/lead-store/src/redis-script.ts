import { createHash } from 'node:crypto';
import type { Redis } from 'ioredis';

type Arg = string | number | Buffer;

const shas = new Map<string, string>();

function shaOf(script: string): string {
  let sha = shas.get(script);
  if (sha === undefined) {
    sha = createHash('sha1').update(script).digest('hex');
    shas.set(script, sha);
  }
  return sha;
}

/**
 * Runs a Lua script by its SHA1 (`EVALSHA`), so its text crosses the wire once per Redis server instead of on
 * every call: with `EVAL`, encoding the script text was 12-26 % of a step save's CPU (bench/HISTORY.md). When
 * the server does not know it yet (a new or restarted Redis, `SCRIPT FLUSH`), `EVAL` runs it and caches it.
 * Same arguments as `redis.eval`.
 */
export async function evalScript(
  redis: Redis,
  script: string,
  numKeys: number,
  ...args: Arg[]
): Promise<unknown> {
  try {
    return await redis.evalsha(shaOf(script), numKeys, ...args);
  } catch (error) {
    if (error instanceof Error && error.message.startsWith('NOSCRIPT')) {
      return redis.eval(script, numKeys, ...args);
    }
    throw error;
  }
}
