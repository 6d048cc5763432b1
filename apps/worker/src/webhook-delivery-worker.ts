import { Worker } from 'bullmq';
import type { Redis } from 'ioredis';
import { isRedisOutageEcho, type RedisWatch } from '@funnel/server-runtime/redis-watch';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import {
  createWebhookDeliveryProcessor,
  type WebhookDeliveryDeps,
  type WebhookDeliveryResult,
} from './webhook-delivery-processor.js';

export interface WebhookDeliveryWorkerOptions {
  connection: Redis;
  keyPrefix: string;
  concurrency: number;
  /** While Redis is down the worker's errors are the outage's echo, logged once by the watcher. */
  redisWatch?: RedisWatch;
}

/**
 * The BullMQ worker for partner webhooks. A delivery that fails for good (every attempt refused, or no secret)
 * is logged: the partner can still read the outcome with GET /api/v1/partner/leads/:id.
 */
export function createWebhookDeliveryWorker(
  deps: WebhookDeliveryDeps,
  options: WebhookDeliveryWorkerOptions,
): Worker {
  const worker = new Worker<unknown, WebhookDeliveryResult>(
    JOBS.partnerWebhook.queue,
    createWebhookDeliveryProcessor(deps),
    {
      connection: options.connection,
      prefix: queuePrefix(options.keyPrefix),
      concurrency: options.concurrency,
    },
  );
  worker.on('error', (err) => {
    if (isRedisOutageEcho(err, options.redisWatch)) return;
    deps.logger.error({ err }, 'webhook worker error');
  });
  worker.on('failed', (job, err) => {
    if (!job) return;
    const finalFailure = err.name === 'UnrecoverableError' || job.attemptsMade >= (job.opts.attempts ?? 1);
    if (finalFailure) deps.logger.error({ jobId: job.id, err: err.message }, 'webhook delivery abandoned');
  });
  return worker;
}
