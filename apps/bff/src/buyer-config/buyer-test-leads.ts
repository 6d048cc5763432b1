import { randomBytes } from 'node:crypto';
import { Job, Queue, QueueEvents } from 'bullmq';
import type { Redis } from 'ioredis';
import { BuyerTestResultSchema, type BuyerTestResult } from '@funnel/contracts/buyer-admin';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { enqueue } from '@funnel/server-runtime/job-queue';
import type { ReportFailure } from '../handled-failure.js';
import { HttpError } from '../http-error.js';

/** The states of a job no worker has taken yet. */
const NOT_TAKEN = new Set(['waiting', 'delayed', 'prioritized', 'waiting-children']);

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
    private readonly reportFailure: ReportFailure,
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

  /**
   * The buyer's answer, or undefined when no worker took the test within `timeoutMs` (the job is withdrawn). A
   * test a worker took and failed, or answered with something unreadable, is no "not taken": it is reported
   * (logged with its cause, counted) and answered 502.
   */
  async send(buyerId: string, timeoutMs: number): Promise<BuyerTestResult | undefined> {
    const { queue, events } = this.#open();
    await events.waitUntilReady();
    const requestId = randomBytes(12).toString('base64url');
    await enqueue(queue, JOBS.buyerTestLead, { buyerId, requestId });
    const job = await Job.fromId(queue, requestId);
    let answer: unknown;
    try {
      answer = await job!.waitUntilFinished(events, timeoutMs);
    } catch (error) {
      if (NOT_TAKEN.has(await job!.getState())) {
        // Withdrawn, so it is never sent after the manager was told it failed; a worker taking it meanwhile
        // holds its lock, and the removal then fails, which is what we want.
        await job!.remove().catch(() => undefined);
        return undefined;
      }
      this.reportFailure('buyer_test_lead', error);
      throw new HttpError(
        502,
        'UNAVAILABLE',
        'A worker took the test and could not run it; the cause is in the log.',
      );
    }
    const parsed = BuyerTestResultSchema.safeParse(answer);
    if (parsed.success) return parsed.data;
    this.reportFailure('buyer_test_lead', parsed.error);
    throw new HttpError(502, 'UNAVAILABLE', 'A worker answered the test with something unreadable.');
  }

  async close(): Promise<void> {
    await this.#opened?.queue.close();
    await this.#opened?.events.close();
  }
}
