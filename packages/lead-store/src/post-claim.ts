import type { Redis } from 'ioredis';
import { redisKeys, type RedisKeys } from './keys.js';

/**
 * The right to post a lead to the lender network (`{prefix}lead:{id}:posting`): two workers holding the same
 * job (a lost lock) never post at once; the idempotency key covers the rest.
 */
export class PostClaim {
  private readonly keys: RedisKeys;

  constructor(
    private readonly redis: Redis,
    options: { keyPrefix: string },
  ) {
    this.keys = redisKeys(options.keyPrefix);
  }

  /** Takes the claim for `ttlMs`; false when another holder has it. */
  async claim(leadId: string, ttlMs: number): Promise<boolean> {
    return (await this.redis.set(this.keys.postClaim(leadId), '1', 'PX', ttlMs, 'NX')) === 'OK';
  }

  /** Ends the claim once the post has answered or failed. */
  async release(leadId: string): Promise<void> {
    await this.redis.del(this.keys.postClaim(leadId));
  }
}
