import type { Redis } from 'ioredis';
import { PostbackDeliverySchema, type PostbackDelivery } from '@funnel/contracts/postbacks';
import { redisKeys, type RedisKeys } from './keys.js';

/** The attempts at a lead's affiliate postbacks (`{prefix}postbacks:{id}`, a list, oldest first). */
export class PostbackLog {
  private readonly keys: RedisKeys;

  constructor(
    private readonly redis: Redis,
    options: { keyPrefix: string },
  ) {
    this.keys = redisKeys(options.keyPrefix);
  }

  /** Records one postback attempt; the record lives `ttlMs` after the latest attempt. */
  async record(leadId: string, delivery: PostbackDelivery, ttlMs: number): Promise<void> {
    const key = this.keys.postbacks(leadId);
    await this.redis
      .multi()
      .rpush(key, JSON.stringify(PostbackDeliverySchema.parse(delivery)))
      .pexpire(key, ttlMs)
      .exec();
  }

  /** Every postback attempt recorded for a lead, oldest first. */
  async list(leadId: string): Promise<PostbackDelivery[]> {
    const raw = await this.redis.lrange(this.keys.postbacks(leadId), 0, -1);
    return raw.map((entry) => PostbackDeliverySchema.parse(JSON.parse(entry)));
  }
}
