import type { Redis } from 'ioredis';
import { redisKeys, type RedisKeys } from './keys.js';

/**
 * The two indexes of submitted leads the reconciler reads (docs/adr/0008). The lead store's submission scripts
 * add to both in the step that marks a lead submitted; storing its final outcome removes it from the pending one.
 * - The outbox (`{prefix}submission-outbox`, scored by submission time): leads whose queue job may not exist
 *   yet. The entry goes once the job is known to exist ({@link outboxDone}); the reconciler enqueues what stays
 *   too long.
 * - The pending index (`{prefix}submission-pending`, scored by decision deadline): leads without a final outcome.
 */
export class SubmissionIndex {
  private readonly keys: RedisKeys;

  constructor(
    private readonly redis: Redis,
    options: { keyPrefix: string },
  ) {
    this.keys = redisKeys(options.keyPrefix);
  }

  /** Leads in the outbox since before `olderThanMs` (epoch ms), oldest first. */
  async outboxBefore(olderThanMs: number, limit = 500): Promise<string[]> {
    return this.redis.zrangebyscore(this.keys.submissionOutbox, '-inf', olderThanMs, 'LIMIT', 0, limit);
  }

  /** Removes a lead from the outbox once its job exists (or it no longer needs one). */
  async outboxDone(leadId: string): Promise<void> {
    await this.redis.zrem(this.keys.submissionOutbox, leadId);
  }

  /** Submitted leads still without a final outcome whose deadline is before `beforeMs` (all with +Infinity). */
  async pendingBefore(beforeMs: number, limit = 5000): Promise<string[]> {
    return this.redis.zrangebyscore(this.keys.submissionPending, '-inf', beforeMs, 'LIMIT', 0, limit);
  }

  /** Forgets a lead in the pending index (it is gone). */
  async pendingDone(leadId: string): Promise<void> {
    await this.redis.zrem(this.keys.submissionPending, leadId);
  }
}
