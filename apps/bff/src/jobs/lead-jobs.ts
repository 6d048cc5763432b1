import { Queue } from 'bullmq';
import type { Redis } from 'ioredis';
import { JOBS, leadJobIds, queuePrefix, type MailingListSyncTrigger } from '@funnel/contracts/jobs';
import { enqueue } from '@funnel/server-runtime/job-queue';
import type { OptOutKind } from '@funnel/contracts/buyer-opt-out';
import type { CrossSellQuestion } from '@funnel/contracts/cross-sell';

/**
 * The BFF's side of the lead's follow-up queues: it adds mailing-list and cross-sell jobs (data = the lead id,
 * job id from the catalog, so repeats while one waits add nothing) and removes every job of a lead when the lead
 * is erased. The worker consumes them.
 */
export class LeadJobs {
  private readonly queues = new Map<string, Queue>();

  constructor(
    private readonly connection: Redis,
    private readonly keyPrefix: string,
    private readonly onError: (err: Error) => void,
  ) {}

  /** Syncs the lead's contact to the mailing list (the worker skips it when no list is configured). */
  async mailingListSync(leadId: string, trigger: MailingListSyncTrigger): Promise<void> {
    await enqueue(this.queue(JOBS.mailingListSync.queue), JOBS.mailingListSync, { leadId }, trigger);
  }

  /** Forwards the lead's cross-sell record, after a yes to `question`. */
  async crossSellForward(leadId: string, question: CrossSellQuestion): Promise<void> {
    await enqueue(this.queue(JOBS.crossSellForward.queue), JOBS.crossSellForward, { leadId }, question);
  }

  /**
   * A buyer's return of the lead took effect (ADR 0020): the worker reverses the affiliate's payout when it was
   * paid, and tells the affiliate when its postback accepts reversals. One job per lead.
   */
  async payoutReversal(leadId: string): Promise<void> {
    await enqueue(this.queue(JOBS.affiliatePostback.queue), JOBS.affiliatePostback, {
      leadId,
      event: 'returned',
    });
  }

  /**
   * A manager reversed the lead's approved return (ADR 0021): the worker restores the affiliate's payout when it
   * was reversed, and tells the affiliate when it was told of the reversal. One job per lead.
   */
  async payoutRestore(leadId: string): Promise<void> {
    await enqueue(this.queue(JOBS.affiliatePostback.queue), JOBS.affiliatePostback, {
      leadId,
      event: 'return_reversed',
    });
  }

  /**
   * The lead's borrower opted out (issue 41): the worker tells every buyer that received the lead, once the
   * buyers are known. One job per lead and kind of request.
   */
  async buyerOptOut(leadId: string, kind: OptOutKind, requestedAt: Date): Promise<void> {
    await enqueue(this.queue(JOBS.buyerOptOut.queue), JOBS.buyerOptOut, {
      leadId,
      kind,
      requestedAt: requestedAt.toISOString(),
      told: [],
    });
  }

  /**
   * Removes every job of a lead from every queue of the catalog; returns how many existed and were removed. A
   * job a worker holds at this moment cannot be removed: it finds the lead gone and ends without doing anything.
   */
  async removeAll(leadId: string): Promise<number> {
    let removed = 0;
    for (const { queue: name, jobIds } of leadJobIds(leadId)) {
      const queue = this.queue(name);
      for (const jobId of jobIds) {
        if (!(await queue.getJob(jobId))) continue;
        removed += await queue.remove(jobId);
      }
    }
    return removed;
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }

  private queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, { connection: this.connection, prefix: queuePrefix(this.keyPrefix) });
      queue.on('error', this.onError);
      this.queues.set(name, queue);
    }
    return queue;
  }
}
