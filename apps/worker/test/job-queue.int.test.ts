import { randomBytes } from 'node:crypto';
import { QueueEvents } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { JobQueues, enqueue, startQueueWorker } from '@funnel/server-runtime/job-queue';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';

const leadId = () => randomBytes(12).toString('hex');

describe('the job catalog on BullMQ (enqueue, startQueueWorker)', () => {
  const keyPrefix = testKeyPrefix('job-queue');
  const redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
  const queues = new JobQueues(redis, keyPrefix);

  afterAll(async () => {
    await queues.close();
    await deleteKeys(redis, keyPrefix);
    await redis.quit();
  });

  it("adds a job under the catalog's name, options and job id, once however often it is added", async () => {
    const id = leadId();
    await enqueue(queues, JOBS.submitLead, { leadId: id });
    await enqueue(queues, JOBS.submitLead, { leadId: id });
    const queue = queues.queue(JOBS.submitLead.queue);
    const job = await queue.getJob(id);
    expect(job?.name).toBe(JOBS.submitLead.name);
    expect(job?.data).toEqual({ leadId: id });
    expect(job?.opts.attempts).toBe(JOBS.submitLead.options.attempts);
    expect(job?.opts.backoff).toEqual(JOBS.submitLead.options.backoff);
    expect(await queue.getJobCountByTypes('waiting', 'delayed')).toBe(1);
  });

  it('names a job by its key where the catalog says so, and lets a call add a delay', async () => {
    const id = leadId();
    await enqueue(queues, JOBS.mailingListSync, { leadId: id }, 'submitted');
    await enqueue(queues, JOBS.sensitiveDataPurge, { leadId: id }, { delay: 60_000 });
    expect(await queues.queue(JOBS.mailingListSync.queue).getJob(`${id}.submitted`)).toBeDefined();
    const purge = await queues.queue(JOBS.sensitiveDataPurge.queue).getJob(id);
    expect(purge?.opts.delay).toBe(60_000);
    expect(purge?.opts.attempts).toBe(JOBS.sensitiveDataPurge.options.attempts);
    expect(JOBS.mailingListSync.leadJobIds(id)).toContain(`${id}.submitted`);
  });

  it('refuses a wrong payload at compile time and at run time, and a queue of another job', async () => {
    const queue = queues.queue(JOBS.submitLead.queue);
    const before = await queue.getJobCountByTypes('waiting', 'delayed');
    // @ts-expect-error the lead id is a string
    await expect(enqueue(queues, JOBS.submitLead, { leadId: 42 })).rejects.toThrow();
    // @ts-expect-error a postback names its event
    await expect(enqueue(queues, JOBS.affiliatePostback, { leadId: leadId() })).rejects.toThrow();
    await expect(
      enqueue(queues.queue(JOBS.partnerWebhook.queue), JOBS.submitLead, { leadId: leadId() }),
    ).rejects.toThrow(/belongs on lead-submission/);
    expect(await queue.getJobCountByTypes('waiting', 'delayed')).toBe(before);
    const typeOnly = () => [
      // @ts-expect-error a submission job carries the lead id and nothing else
      enqueue(queues, JOBS.submitLead, { leadId: leadId(), ssn: '123456789' }),
      // @ts-expect-error a mailing-list sync is named by its trigger
      enqueue(queues, JOBS.mailingListSync, { leadId: leadId() }),
      // @ts-expect-error only the catalog's triggers name one
      enqueue(queues, JOBS.mailingListSync, { leadId: leadId() }, 'clicked'),
      // @ts-expect-error the catalog's options are not for a call to change the job id
      enqueue(queues, JOBS.submitLead, { leadId: leadId() }, { jobId: 'other' }),
    ];
    expect(typeOnly).toBeTypeOf('function');
  });

  it('keeps only what the schema names when a caller slips more past the types', async () => {
    const id = leadId();
    await enqueue(queues, JOBS.submitLead, { leadId: id, ssn: '123456789' } as { leadId: string });
    expect((await queues.queue(JOBS.submitLead.queue).getJob(id))?.data).toEqual({ leadId: id });
  });

  describe('startQueueWorker', () => {
    const failedFor: string[] = [];
    let events: QueueEvents;
    let worker: ReturnType<typeof startQueueWorker>;

    beforeAll(async () => {
      events = new QueueEvents(JOBS.crossSellForward.queue, {
        connection: redis.duplicate(),
        prefix: queuePrefix(keyPrefix),
      });
      await events.waitUntilReady();
      worker = startQueueWorker(
        JOBS.crossSellForward,
        async (job) => {
          if (job.attemptsMade < 1) throw new Error('third party down');
          if ((job.data as { leadId: string }).leadId.startsWith('ff')) throw new Error('still down');
          return { done: 'forwarded' };
        },
        {
          connection: redis.duplicate({ maxRetriesPerRequest: null }),
          keyPrefix,
          concurrency: 2,
          logger: pino({ level: 'silent' }),
          onFinalFailure: async ({ leadId }) => {
            failedFor.push(leadId);
          },
        },
      );
    });
    afterAll(async () => {
      await worker.close();
      await events.close();
    });

    it('retries a failed attempt and settles a job that failed for good with its payload', async () => {
      const fast = { attempts: 2, backoff: { type: 'fixed', delay: 20 } } as const;
      const recovers = leadId();
      const neverDoes = `ff${leadId()}`;
      await enqueue(queues, JOBS.crossSellForward, { leadId: recovers }, 'card-offers', fast);
      await enqueue(queues, JOBS.crossSellForward, { leadId: neverDoes }, 'card-offers', fast);
      const queue = queues.queue(JOBS.crossSellForward.queue);
      const done = await queue.getJob(`${recovers}.card-offers`);
      expect(await done!.waitUntilFinished(events, 10_000)).toEqual({ done: 'forwarded' });
      const failed = await queue.getJob(`${neverDoes}.card-offers`);
      await expect(failed!.waitUntilFinished(events, 10_000)).rejects.toThrow('still down');
      await expect.poll(() => failedFor).toEqual([neverDoes]);
    });
  });
});
