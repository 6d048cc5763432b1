// `npm run upgrade:check`: proves that queued and scheduled work survives the move from BullMQ 5 to BullMQ 6 in
// place. On the real Redis (REDIS_URL), under a key prefix of its own, the OLD major (the npm alias `bullmq-v5`)
// enqueues every kind of job the product uses, with the catalog's names, ids and options:
// - a submit job waiting, a submit job a v5 worker already started polling (`moveToDelayed` + `DelayedError`, the
//   "process step jobs" pattern) and a submit job a v5 worker failed once (waiting for its retry);
// - the partner webhook and every follow-up job (mailing list, cross-sell, TrustedForm, affiliate postback);
// - the sensitive-data purge, delayed as the worker delays it;
// - the reconciler's job scheduler, upserted as `startScheduledPass` does, and run once by a v5 worker.
// Then, the v5 side closed as a rolled worker is, the NEW major upserts the same scheduler (as a new worker does
// at start) and drains everything with v6 Workers. It prints what each processed and exits non-zero when a job
// is missing, processed twice, left behind, or when the scheduler was duplicated or stopped producing.
// It deletes its keys at the end, whatever happened.
import { randomUUID } from 'node:crypto';
import { DelayedError, Queue, Worker, type Job } from 'bullmq';
import {
  DelayedError as DelayedErrorV5,
  Queue as QueueV5,
  Worker as WorkerV5,
  type Job as JobV5,
} from 'bullmq-v5';
import { Redis } from 'ioredis';
import {
  FOLLOW_UP_JOB_IDS,
  FOLLOW_UP_JOB_OPTIONS,
  JOBS,
  PARTNER_WEBHOOK_JOB_OPTIONS,
  SUBMIT_LEAD_JOB_OPTIONS,
  queuePrefix,
} from '@funnel/contracts/jobs';
import { until } from '@funnel/testing/until';

const RECONCILE_QUEUE = 'reconciler';
const RECONCILE_SCHEDULER = 'reconcile';
const RECONCILE_EVERY_MS = 1_000;
const DEADLINE_MS = 60_000;

const redisUrl = new URL(process.env.REDIS_URL ?? 'redis://127.0.0.1:6379');
const connection = {
  host: redisUrl.hostname,
  port: Number(redisUrl.port || 6379),
  username: decodeURIComponent(redisUrl.username) || undefined,
  password: decodeURIComponent(redisUrl.password) || undefined,
  db: Number(redisUrl.pathname.slice(1) || 0),
  maxRetriesPerRequest: null,
};
const keyPrefix = `upgrade-check:${randomUUID().slice(0, 8)}:`;
const prefix = queuePrefix(keyPrefix);
const leadId = (label: string) => `upgradecheck${label.padEnd(10, '0')}`.slice(0, 22);
const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Expected {
  queue: string;
  name: string;
  id: string;
  /** What the v5 side did to it before the upgrade. */
  before: string;
}

/** Every job the old major enqueues, one of each kind the product uses. */
const submitWaiting = leadId('waiting');
const submitPolling = leadId('polling');
const submitRetrying = leadId('retrying');
const followUpLead = leadId('followup');
const purgeLead = leadId('purge');
const expected: Expected[] = [
  { queue: JOBS.submitLead.queue, name: JOBS.submitLead.name, id: submitWaiting, before: 'waiting' },
  {
    queue: JOBS.submitLead.queue,
    name: JOBS.submitLead.name,
    id: submitPolling,
    before: 'polled once by v5 (moveToDelayed)',
  },
  {
    queue: JOBS.submitLead.queue,
    name: JOBS.submitLead.name,
    id: submitRetrying,
    before: 'failed once by v5 (retry backoff)',
  },
  { queue: JOBS.partnerWebhook.queue, name: JOBS.partnerWebhook.name, id: followUpLead, before: 'waiting' },
  {
    queue: JOBS.mailingListSync.queue,
    name: JOBS.mailingListSync.name,
    id: FOLLOW_UP_JOB_IDS.mailingListSync(followUpLead, 'submitted'),
    before: 'waiting',
  },
  {
    queue: JOBS.crossSellForward.queue,
    name: JOBS.crossSellForward.name,
    id: FOLLOW_UP_JOB_IDS.crossSellForward(followUpLead, 'card-offers'),
    before: 'waiting',
  },
  {
    queue: JOBS.trustedFormRetain.queue,
    name: JOBS.trustedFormRetain.name,
    id: FOLLOW_UP_JOB_IDS.trustedFormRetain(followUpLead),
    before: 'waiting',
  },
  {
    queue: JOBS.affiliatePostback.queue,
    name: JOBS.affiliatePostback.name,
    id: FOLLOW_UP_JOB_IDS.affiliatePostback(followUpLead, 'sold'),
    before: 'waiting',
  },
  {
    queue: JOBS.sensitiveDataPurge.queue,
    name: JOBS.sensitiveDataPurge.name,
    id: FOLLOW_UP_JOB_IDS.sensitiveDataPurge(purgeLead),
    before: 'delayed 3 s',
  },
];
const queueNames = [...new Set([...expected.map((job) => job.queue), RECONCILE_QUEUE])];

async function enqueueWithV5(): Promise<number> {
  const queues = new Map(queueNames.map((name) => [name, new QueueV5(name, { connection, prefix })]));
  const queue = (name: string) => queues.get(name)!;
  const submit = queue(JOBS.submitLead.queue);

  // The submit jobs a v5 worker had started on: one is polling (the lender said "pending"), one failed its post.
  await submit.add(
    JOBS.submitLead.name,
    { leadId: submitPolling },
    { ...SUBMIT_LEAD_JOB_OPTIONS, jobId: submitPolling },
  );
  await submit.add(
    JOBS.submitLead.name,
    { leadId: submitRetrying },
    { ...SUBMIT_LEAD_JOB_OPTIONS, jobId: submitRetrying },
  );
  const started = new Set<string>();
  const v5Submit = new WorkerV5(
    JOBS.submitLead.queue,
    async (job: JobV5, token?: string) => {
      started.add(job.id!);
      if (job.id === submitRetrying) throw new Error('lender network unreachable (v5)');
      await job.updateData({ ...job.data, polls: 1 });
      await job.moveToDelayed(Date.now() + 3_000, token);
      throw new DelayedErrorV5();
    },
    { connection, prefix, concurrency: 2 },
  );
  await until('the v5 worker to start both submit jobs', () => started.size === 2, {
    timeoutMs: DEADLINE_MS,
    intervalMs: 100,
  });
  await until(
    'the v5 side to park both submit jobs as delayed',
    async () => (await submit.getDelayedCount()) === 2,
    { timeoutMs: DEADLINE_MS, intervalMs: 100 },
  );
  await v5Submit.close();

  // The reconciler's schedule, upserted by the v5 workers, which also ran a pass.
  const reconciler = queue(RECONCILE_QUEUE);
  await reconciler.upsertJobScheduler(
    RECONCILE_SCHEDULER,
    { every: RECONCILE_EVERY_MS },
    { name: RECONCILE_SCHEDULER, opts: { removeOnComplete: 100, removeOnFail: 100 } },
  );
  let v5Passes = 0;
  const v5Reconciler = new WorkerV5(RECONCILE_QUEUE, async () => void (v5Passes += 1), {
    connection,
    prefix,
    concurrency: 1,
  });
  await until('a v5 reconciler pass', () => v5Passes >= 1, { timeoutMs: DEADLINE_MS, intervalMs: 100 });
  await v5Reconciler.close();

  // Everything else, as the BFF and the worker enqueue it.
  await submit.add(
    JOBS.submitLead.name,
    { leadId: submitWaiting },
    { ...SUBMIT_LEAD_JOB_OPTIONS, jobId: submitWaiting },
  );
  await queue(JOBS.partnerWebhook.queue).add(
    JOBS.partnerWebhook.name,
    { leadId: followUpLead },
    { ...PARTNER_WEBHOOK_JOB_OPTIONS, jobId: followUpLead },
  );
  for (const key of ['mailingListSync', 'crossSellForward', 'trustedFormRetain'] as const) {
    const job = expected.find((entry) => entry.name === JOBS[key].name)!;
    await queue(job.queue).add(
      job.name,
      { leadId: followUpLead },
      { ...FOLLOW_UP_JOB_OPTIONS[key], jobId: job.id },
    );
  }
  const postback = expected.find((entry) => entry.name === JOBS.affiliatePostback.name)!;
  await queue(postback.queue).add(
    postback.name,
    { leadId: followUpLead, event: 'sold' },
    { ...FOLLOW_UP_JOB_OPTIONS.affiliatePostback, jobId: postback.id },
  );
  const purge = expected.find((entry) => entry.name === JOBS.sensitiveDataPurge.name)!;
  await queue(purge.queue).add(
    purge.name,
    { leadId: purgeLead },
    { ...FOLLOW_UP_JOB_OPTIONS.sensitiveDataPurge, jobId: purge.id, delay: 3_000 },
  );
  await Promise.all([...queues.values()].map((q) => q.close()));
  return v5Passes;
}

interface Processed {
  queue: string;
  name: string;
  id: string;
  attempt: number;
  polls: number;
}

async function drainWithV6(): Promise<{ processed: Processed[]; passes: number; schedulers: number }> {
  // A new worker upserts the same scheduler at start (startScheduledPass): it must replace, not add.
  const reconciler = new Queue(RECONCILE_QUEUE, { connection, prefix });
  await reconciler.upsertJobScheduler(
    RECONCILE_SCHEDULER,
    { every: RECONCILE_EVERY_MS },
    { name: RECONCILE_SCHEDULER, opts: { removeOnComplete: 100, removeOnFail: 100 } },
  );
  const processed: Processed[] = [];
  let passes = 0;
  const workers = queueNames.map(
    (name) =>
      new Worker(
        name,
        async (job: Job, token?: string) => {
          if (name === RECONCILE_QUEUE) {
            passes += 1;
            return;
          }
          // The polling job keeps polling under v6 once more, then completes: the step pattern carries over.
          const polls = Number(job.data.polls ?? 0);
          if (job.id === submitPolling && polls < 2) {
            await job.updateData({ ...job.data, polls: polls + 1 });
            await job.moveToDelayed(Date.now() + 500, token);
            throw new DelayedError();
          }
          processed.push({ queue: name, name: job.name, id: job.id!, attempt: job.attemptsMade + 1, polls });
        },
        { connection, prefix, concurrency: 4 },
      ),
  );
  try {
    await until(
      'v6 to process every job and two reconciler passes',
      () => {
        const ids = new Set(processed.map((job) => `${job.queue}/${job.id}`));
        return expected.every((job) => ids.has(`${job.queue}/${job.id}`)) && passes >= 2;
      },
      { timeoutMs: DEADLINE_MS, intervalMs: 100 },
    );
    await wait(500); // room for a duplicate to show up
  } finally {
    await Promise.all(workers.map((worker) => worker.close()));
  }
  const schedulers = (await reconciler.getJobSchedulers()).length;
  await reconciler.close();
  return { processed, passes, schedulers };
}

async function leftBehind(): Promise<string[]> {
  const left: string[] = [];
  for (const name of queueNames.filter((queue) => queue !== RECONCILE_QUEUE)) {
    const queue = new Queue(name, { connection, prefix });
    const counts = await queue.getJobCounts(
      'waiting',
      'active',
      'delayed',
      'failed',
      'prioritized',
      'paused',
    );
    for (const [state, count] of Object.entries(counts))
      if (count > 0) left.push(`${name}: ${count} ${state}`);
    await queue.close();
  }
  return left;
}

async function deleteKeys(): Promise<number> {
  const redis = new Redis(redisUrl.href);
  let deleted = 0;
  try {
    for await (const keys of redis.scanStream({ match: `${keyPrefix}*`, count: 500 }) as AsyncIterable<
      string[]
    >)
      if (keys.length > 0) deleted += await redis.unlink(...keys);
  } finally {
    redis.disconnect();
  }
  return deleted;
}

const problems: string[] = [];
try {
  console.log(`Redis ${redisUrl.host}, key prefix ${keyPrefix}`);
  const v5Passes = await enqueueWithV5();
  console.log(
    `BullMQ 5 enqueued ${expected.length} jobs on ${queueNames.length - 1} queues and the reconciler's scheduler; its worker ran ${v5Passes} pass(es).`,
  );
  const { processed, passes, schedulers } = await drainWithV6();
  console.log('\nBullMQ 6 processed:');
  console.log(
    'queue               | job                     | id                                 | before the upgrade                | attempt | v5+v6 polls',
  );
  for (const job of expected) {
    const runs = processed.filter((entry) => entry.queue === job.queue && entry.id === job.id);
    if (runs.length !== 1) problems.push(`${job.queue}/${job.id} processed ${runs.length} times`);
    const run = runs[0];
    console.log(
      `${job.queue.padEnd(19)} | ${job.name.padEnd(23)} | ${job.id.padEnd(34)} | ${job.before.padEnd(33)} | ${String(run?.attempt ?? '-').padStart(7)} | ${job.id === submitPolling ? run?.polls : ''}`,
    );
  }
  console.log(
    `reconciler          | ${RECONCILE_SCHEDULER.padEnd(23)} | scheduler every ${RECONCILE_EVERY_MS} ms              | upserted by v5, ran ${v5Passes} pass(es)         | ${passes} v6 passes`,
  );
  const unexpected = processed.filter(
    (entry) => !expected.some((job) => job.queue === entry.queue && job.id === entry.id),
  );
  for (const entry of unexpected) problems.push(`unexpected job ${entry.queue}/${entry.id}`);
  if (schedulers !== 1) problems.push(`${schedulers} job schedulers on the reconciler queue, expected 1`);
  if (passes < 2) problems.push(`the scheduler produced ${passes} passes under v6`);
  if (processed.find((job) => job.id === submitRetrying)?.attempt !== 2)
    problems.push('the job v5 failed once was not retried as attempt 2');
  if (processed.find((job) => job.id === submitPolling)?.polls !== 2)
    problems.push('the polling job did not carry its v5 step data into v6');
  problems.push(...(await leftBehind()).map((left) => `left behind: ${left}`));
  console.log(`job schedulers on the reconciler queue after the v6 upsert: ${schedulers}`);
} catch (err) {
  problems.push(err instanceof Error ? err.message : String(err));
} finally {
  console.log(`\nDeleted ${await deleteKeys()} keys under ${keyPrefix}`);
}
if (problems.length > 0) {
  console.error(`\nFAIL: ${problems.length} problem(s):\n- ${problems.join('\n- ')}`);
  process.exit(1);
}
console.log(
  `\nPASS: all ${expected.length} jobs enqueued by BullMQ 5 were processed once by BullMQ 6, the scheduler kept one schedule and kept producing.`,
);
process.exit(0);
