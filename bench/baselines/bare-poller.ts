// Baseline for poll lateness: a no-op BullMQ poller. Each job "polls" every POLL_INTERVAL_MS by
// `moveToDelayed` + `DelayedError`, like the product's worker, and does nothing else. It logs each job's gaps
// between polls as one JSON line when the job ends.
import { DelayedError, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const jobs = Number(process.env.JOBS ?? 3000);
const interval = Number(process.env.POLL_INTERVAL_MS ?? 2000);
const polls = Number(process.env.POLLS ?? 30);
const concurrency = Number(process.env.CONCURRENCY ?? 100);
const queueName = 'bench-bare-poller';

const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
const queue = new Queue(queueName, { connection });
interface PollData {
  polls: number;
  last?: number;
  gaps: number[];
}
const worker = new Worker<PollData>(
  queueName,
  async (job, token) => {
    const now = Date.now();
    const data = job.data;
    if (data.last !== undefined) data.gaps.push(now - data.last);
    if (data.polls >= polls) {
      console.log(JSON.stringify({ gaps: data.gaps }));
      return;
    }
    await job.updateData({ polls: data.polls + 1, last: now, gaps: data.gaps });
    await job.moveToDelayed(now + interval, token);
    throw new DelayedError();
  },
  { connection, concurrency },
);
await worker.waitUntilReady();
await queue.addBulk(
  Array.from({ length: jobs }, (_, i) => ({
    name: 'poll',
    data: { polls: 0, gaps: [] },
    opts: { jobId: `job-${i}`, removeOnComplete: true },
  })),
);
console.log('ready');
