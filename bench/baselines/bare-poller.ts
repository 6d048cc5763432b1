// Baseline for poll lateness: a no-op BullMQ poller. Each job "polls" every POLL_INTERVAL_MS by
// `moveToDelayed` + `DelayedError`, like the product's worker, and does nothing else. When every job has
// polled POLLS times it writes the gaps between polls to GAPS_FILE (JSON) and prints "done".
import { DelayedError, Queue, Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { writeFileSync } from 'node:fs';

const redisUrl = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const jobs = Number(process.env.JOBS ?? 3000);
const interval = Number(process.env.POLL_INTERVAL_MS ?? 2000);
const polls = Number(process.env.POLLS ?? 30);
const concurrency = Number(process.env.CONCURRENCY ?? 100);
const gapsFile = process.env.GAPS_FILE ?? 'bare-poller-gaps.json';
const queueName = 'bench-bare-poller';

const connection = new Redis(redisUrl, { maxRetriesPerRequest: null });
const queue = new Queue(queueName, { connection });
// Kept in this process, not in the job: the product's worker writes nothing to a job between polls either.
const lastPoll = new Map<string, number>();
const pollCount = new Map<string, number>();
const gaps: number[] = [];
let finished = 0;

const worker = new Worker(
  queueName,
  async (job, token) => {
    const now = Date.now();
    const id = job.id!;
    const last = lastPoll.get(id);
    if (last !== undefined) gaps.push(now - last);
    lastPoll.set(id, now);
    const count = (pollCount.get(id) ?? 0) + 1;
    pollCount.set(id, count);
    if (count > polls) {
      if (++finished === jobs) {
        writeFileSync(gapsFile, JSON.stringify(gaps));
        console.log('done');
      }
      return;
    }
    await job.moveToDelayed(now + interval, token);
    throw new DelayedError();
  },
  { connection, concurrency },
);
await worker.waitUntilReady();
await queue.addBulk(
  Array.from({ length: jobs }, (_, i) => ({
    name: 'poll',
    data: {},
    opts: { jobId: `job-${i}`, removeOnComplete: true },
  })),
);
console.log('ready');
