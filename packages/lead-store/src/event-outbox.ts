import { randomBytes } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { redisKeys } from './keys.js';

/** A new event's id: deterministic for what happens once per lead, unique for what can repeat (a step). */
export function eventId(leadId: string, what: string, repeatable = false): string {
  return repeatable ? `${leadId}.${what}.${randomBytes(6).toString('base64url')}` : `${leadId}.${what}`;
}

/**
 * The Redis side of the system of record (issue 10): the BFF and the worker append lead events to one stream,
 * on the same Redis a borrower's request already waits on, and the worker drains it into PostgreSQL. Appending
 * never waits on PostgreSQL.
 */
export class EventOutbox {
  readonly key: string;

  constructor(
    private readonly redis: Redis,
    options: { keyPrefix: string },
  ) {
    this.key = redisKeys(options.keyPrefix).leadEvents;
  }

  async append(...events: LeadEvent[]): Promise<void> {
    if (events.length === 0) return;
    const pipeline = this.redis.pipeline();
    for (const event of events) pipeline.xadd(this.key, '*', 'e', JSON.stringify(event));
    const results = await pipeline.exec();
    const failed = results?.find(([error]) => error);
    if (failed?.[0]) throw failed[0];
  }
}
