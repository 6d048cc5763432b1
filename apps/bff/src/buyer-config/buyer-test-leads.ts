import { randomBytes } from 'node:crypto';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { BuyerTestResultSchema, type BuyerTestResult } from '@funnel/contracts/buyer-admin';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { enqueue } from '@funnel/server-runtime/job-queue';

/**
 * A manager's test of a buyer (ADR 0022): the sample lead sent to the buyer by a worker, through the adapter the
 * leads go through, its answer awaited here. The queue's events are read on a connection of their own, opened at
 * the first test: a BFF whose managers never test a buyer holds no blocking connection for it.
 */
export class BuyerTestLeads {
  readonly #queue: Queue;
  #events: QueueEvents | undefined;

  constructor(
    private readonly redis: Redis,
    private readonly keyPrefix: string,
  ) {
    this.#queue = new Queue(JOBS.buyerTestLead.queue, { connection: redis, prefix: queuePrefix(keyPrefix) });
  }

  /** The buyer's answer, or undefined when no worker answered within `timeoutMs` (the job is withdrawn). */
  async send(buyerId: string, timeoutMs: number): Promise<BuyerTestResult | undefined> {
    this.#events ??= new QueueEvents(JOBS.buyerTestLead.queue, {
      connection: this.redis.duplicate({ maxRetriesPerRequest: null }),
      prefix: queuePrefix(this.keyPrefix),
    });
    await this.#events.waitUntilReady();
    const requestId = randomBytes(12).toString('base64url');
    await enqueue(this.#queue, JOBS.buyerTestLead, { buyerId, requestId });
    const job = await Job.fromId(this.#queue, requestId);
    try {
      return BuyerTestResultSchema.parse(await job!.waitUntilFinished(this.#events, timeoutMs));
    } catch {
      // Not yet taken by a worker: withdrawn, so it is never sent after the manager was told it failed.
      await job!.remove().catch(() => undefined);
      return undefined;
    }
  }

  async close(): Promise<void> {
    await this.#queue.close();
    await this.#events?.close();
  }
}
