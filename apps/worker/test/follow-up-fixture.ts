import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Queue, QueueEvents, type JobsOptions, type Worker } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { JOBS, queuePrefix, type MailingListSyncTrigger } from '@funnel/contracts/jobs';
import type { CrossSellQuestion } from '@funnel/contracts/cross-sell';
import { SuppressionList } from '@funnel/lead-store/suppression-list';
import type { CrossSellForwardConfig } from '../src/follow-ups/cross-sell-forward-processor.js';
import type { FollowUpResult } from '../src/follow-ups/follow-up-result.js';
import { createFollowUpWorkers } from '../src/follow-ups/follow-up-workers.js';
import type { BrevoConfig } from '../src/follow-ups/mailing-list-sync-processor.js';
import { OutboundHttp } from '../src/follow-ups/outbound-http.js';
import type { TrustedFormConfig } from '../src/follow-ups/trustedform-retain-processor.js';
import type { Pipeline } from './pipeline-fixture.js';

export interface RecordedRequest {
  method: string;
  /** Path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: unknown;
}

/**
 * A local HTTP server standing in for a third party (Brevo, the cross-sell partner, TrustedForm): it records
 * every request and answers with the scripted statuses in order, then `defaultStatus`.
 */
export interface Recorder {
  url: string;
  requests: RecordedRequest[];
  respondWith(...statuses: number[]): void;
  close(): Promise<void>;
}

export async function startRecorder(defaultStatus = 201, answer: unknown = {}): Promise<Recorder> {
  const requests: RecordedRequest[] = [];
  const scripted: number[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      requests.push({
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: text ? JSON.parse(text) : undefined,
      });
      const status = scripted.shift() ?? defaultStatus;
      res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    respondWith: (...statuses) => scripted.push(...statuses),
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Retries in milliseconds rather than minutes. */
export const FAST_RETRIES: JobsOptions = {
  attempts: 3,
  backoff: { type: 'fixed', delay: 50 },
  // Kept, so a test can read the result of a job that finished before it looked.
  removeOnComplete: false,
};

export interface FollowUps {
  suppression: SuppressionList;
  syncMailingList(leadId: string, trigger?: MailingListSyncTrigger): Promise<FollowUpResult>;
  forwardCrossSell(leadId: string, question?: CrossSellQuestion): Promise<FollowUpResult>;
  /** The result of a retain or purge job the final-outcome hook queued. */
  retainResult(leadId: string): Promise<FollowUpResult>;
  purgeResult(leadId: string): Promise<FollowUpResult>;
  close(): Promise<void>;
}

/** The follow-up workers inside the test process, on the pipeline's prefix, with the given third parties. */
export async function startFollowUps(
  pipeline: Pipeline,
  config: {
    brevo?: BrevoConfig;
    forward?: CrossSellForwardConfig;
    trustedForm?: TrustedFormConfig;
  },
): Promise<FollowUps> {
  const connection = new Redis(pipeline.redisUrl, { maxRetriesPerRequest: null });
  const prefix = queuePrefix(pipeline.keyPrefix);
  const suppression = new SuppressionList(connection, {
    keyPrefix: pipeline.keyPrefix,
    hashSecret: pipeline.suppressionSecret,
    sealer: pipeline.cipher,
  });
  const http = new OutboundHttp({ connectTimeoutMs: 1000, responseTimeoutMs: 2000 });
  const workers: Worker[] = createFollowUpWorkers(
    {
      store: pipeline.store,
      suppression,
      http,
      brevo: config.brevo,
      forward: config.forward,
      trustedForm: config.trustedForm,
      logger: pino({ level: 'silent' }),
    },
    { connection, keyPrefix: pipeline.keyPrefix, concurrency: 4 },
  );
  const queues = Object.fromEntries(
    (['mailingListSync', 'crossSellForward', 'trustedFormRetain', 'sensitiveDataPurge'] as const).map(
      (job) => [job, new Queue(JOBS[job].queue, { connection, prefix })],
    ),
  ) as Record<'mailingListSync' | 'crossSellForward' | 'trustedFormRetain' | 'sensitiveDataPurge', Queue>;
  const events = Object.fromEntries(
    Object.entries(queues).map(([job, queue]) => [
      job,
      new QueueEvents(queue.name, { connection: connection.duplicate(), prefix }),
    ]),
  ) as Record<keyof typeof queues, QueueEvents>;
  await Promise.all(Object.values(events).map((e) => e.waitUntilReady()));

  /** Waits for the job to finish, whatever way; a failed job answers `{ failed: reason }`. */
  async function resultOf(job: keyof typeof queues, jobId: string): Promise<FollowUpResult> {
    for (let i = 0; i < 200; i++) {
      const found = await queues[job].getJob(jobId);
      if (found) {
        try {
          return (await found.waitUntilFinished(events[job], 10_000)) as FollowUpResult;
        } catch (error) {
          return { skipped: `failed: ${(error as Error).message}` };
        }
      }
      await new Promise((r) => setTimeout(r, 25));
    }
    throw new Error(`no ${job} job ${jobId}`);
  }

  async function run(job: keyof typeof queues, leadId: string, jobId: string): Promise<FollowUpResult> {
    await queues[job].add(JOBS[job].name, { leadId }, { ...FAST_RETRIES, jobId });
    return resultOf(job, jobId);
  }

  return {
    suppression,
    syncMailingList: (leadId, trigger = 'email-saved') =>
      run('mailingListSync', leadId, JOBS.mailingListSync.jobId({ leadId }, trigger)),
    forwardCrossSell: (leadId, question = 'card-offers') =>
      run('crossSellForward', leadId, JOBS.crossSellForward.jobId({ leadId }, question)),
    retainResult: (leadId) => resultOf('trustedFormRetain', JOBS.trustedFormRetain.jobId({ leadId })),
    purgeResult: (leadId) => resultOf('sensitiveDataPurge', JOBS.sensitiveDataPurge.jobId({ leadId })),
    async close() {
      await Promise.all(workers.map((worker) => worker.close()));
      await Promise.all(Object.values(events).map((e) => e.close()));
      await Promise.all(Object.values(queues).map((queue) => queue.close()));
      await http.close();
      await connection.quit();
    },
  };
}
