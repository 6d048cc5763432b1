import { randomBytes } from 'node:crypto';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { BuyerTestResultSchema, type BuyerTestResult } from '@funnel/contracts/buyer-admin';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { enqueue } from '@funnel/server-runtime/job-queue';

/**
 * A manager's test of a buyer (ADR 0022): the sample lead sent to the buyer by a worker, through the adapter the
 * leads go through, its answer awaited here. The queue's events are read on a connection of their own, opened at
 * the first test, with the queue: a BFF whose managers never test a buyer holds nothing open for it.
 */
export class BuyerTestLeads {
  #opened: { queue: Queue; events: QueueEvents } | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {}

  #open(): { queue: Queue; events: QueueEvents } {
    const prefix = queuePrefix(this.keyPrefix);
    this.#opened ??= {
      queue: new Queue(JOBS.buyerTestLead.queue, { connection: this.redis, prefix }),
      events: new QueueEvents(JOBS.buyerTestLead.queue, {
        connection: this.redis.duplicate({ maxRetriesPerRequest: null }),
        prefix,
      }),
    };
    return this.#opened;
  }

  /** The buyer's answer, or undefined when no worker answered within `timeoutMs` (the job is withdrawn). */
  async send(buyerId: string, timeoutMs: number): Promise<BuyerTestResult | undefined> {
    const { queue, events } = this.#open();
    await events.waitUntilReady();
    const requestId = randomBytes(12).toString('base64url');
    await enqueue(queue, JOBS.buyerTestLead, { buyerId, requestId });
    const job = await Job.fromId(queue, requestId);
    try {
      return BuyerTestResultSchema.parse(await job!.waitUntilFinished(events, timeoutMs));
    } catch {
      // Not yet taken by a worker: withdrawn, so it is never sent after the manager was told it failed.
      await job!.remove().catch(() => undefined);
      return undefined;
    }
  }

  async close(): Promise<void> {
    await this.#opened?.queue.close();
    await this.#opened?.events.close();
  }
}
