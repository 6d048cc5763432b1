import {
  Queue,
  Worker,
  type ConnectionOptions,
  type JobsOptions,
  type Processor,
  type Telemetry,
} from 'bullmq';
import type { z } from 'zod';
import { queuePrefix, type JobDefinition } from '@funnel/contracts/jobs';
import { isNotReplicated } from './replica-wait.js';
import { isRedisOutageEcho, type RedisWatch } from './redis-watch.js';

/*
 * The BullMQ side of the job catalog (`@funnel/contracts/jobs`): how a producer adds a job and how a consumer
 * starts. It lives here, not in contracts (which holds zod schemas and rules, no BullMQ, and is read by the
 * browser) and not in an app (apps never import each other): server-runtime is what every server process shares,
 * and both the BFF (producer) and the worker (producer and consumer) already depend on it.
 */

/** Where `enqueue` finds a job's queue. */
export interface QueueSource {
  queue(name: string): Queue;
}

/** Opens each queue of the catalog once, on first use, on one connection; closes them all together. */
export class JobQueues implements QueueSource {
  private readonly queues = new Map<string, Queue>();

  constructor(
    private readonly connection: ConnectionOptions,
    private readonly keyPrefix: string,
    private readonly onError?: (err: Error) => void,
    /** BullMQ's tracing (`queueTelemetry` in tracing.ts): each add a span, its trace carried in the job. */
    private readonly telemetry?: Telemetry,
  ) {}

  queue(name: string): Queue {
    let queue = this.queues.get(name);
    if (!queue) {
      queue = new Queue(name, {
        connection: this.connection,
        prefix: queuePrefix(this.keyPrefix),
        ...(this.telemetry ? { telemetry: this.telemetry } : {}),
      });
      if (this.onError) queue.on('error', this.onError);
      this.queues.set(name, queue);
    }
    return queue;
  }

  /** The queue of each job, opened if need be (e.g. for the queue-depth metrics). */
  of(jobs: ReadonlyArray<{ queue: string }>): Queue[] {
    return [...new Set(jobs.map((job) => job.queue))].map((name) => this.queue(name));
  }

  async close(): Promise<void> {
    await Promise.all([...this.queues.values()].map((queue) => queue.close()));
  }
}

/** Per call: what differs from the catalog's options (a delay; tests shorten the backoff). Never the job id. */
export type EnqueueOptions = Omit<JobsOptions, 'jobId'>;

/** A job whose id needs a key besides its payload (the mailing-list trigger, the cross-sell question) takes it. */
type KeyArgs<Key> = [Key] extends [void] ? [options?: EnqueueOptions] : [key: Key, options?: EnqueueOptions];

/**
 * Adds `job` with `payload` under the catalog's options and job-id rule. The payload's type is the job's schema,
 * and it is parsed before it is added, so a wrong payload is a type error and never reaches Redis.
 */
export async function enqueue<Schema extends z.ZodType, Key>(
  queues: QueueSource | Queue,
  job: JobDefinition<Schema, Key>,
  payload: NoInfer<z.infer<Schema>>,
  ...args: KeyArgs<Key>
): Promise<void> {
  const [key, options] = (args.length === 0 || isOptions(args[0]) ? [undefined, args[0]] : args) as [
    Key,
    EnqueueOptions | undefined,
  ];
  const data = job.schema.parse(payload) as z.infer<Schema>;
  const queue = queues instanceof Queue ? queues : queues.queue(job.queue);
  if (queue.name !== job.queue) throw new Error(`job ${job.name} belongs on ${job.queue}, not ${queue.name}`);
  await queue.add(job.name, data, { ...job.options, ...options, jobId: job.jobId(data, key) });
}

const isOptions = (arg: unknown): arg is EnqueueOptions | undefined =>
  arg === undefined || (typeof arg === 'object' && arg !== null);

interface QueueWorkerLogger {
  warn(details: object, message: string): void;
  error(details: object, message: string): void;
}

export interface QueueWorkerOptions<Payload> {
  connection: ConnectionOptions;
  keyPrefix: string;
  concurrency: number;
  logger: QueueWorkerLogger;
  /** While Redis is down the worker's errors are the outage's echo, logged once by the watcher. */
  redisWatch?: RedisWatch | undefined;
  /** How fast a dead worker's jobs are taken over (BullMQ's `stalledInterval` and `lockDuration`). */
  stalledIntervalMs?: number;
  lockDurationMs?: number;
  maxStalledCount?: number;
  /** A job failed for good (unrecoverable, or every attempt used): what must still happen to its subject. */
  onFinalFailure?: (payload: Payload) => Promise<void>;
  /** BullMQ's tracing: each run a span in the trace of the request that added the job. */
  telemetry?: Telemetry | undefined;
}

/**
 * Starts the BullMQ worker of `job`'s queue. Every consumer handles trouble the same way: errors while Redis is
 * away are left to the outage watcher; a lost lock is a warning (the stalled check hands the job out again and
 * the subject's own state says where it stands); a failed attempt that will be retried is a warning; a job that
 * failed for good is an error, and `onFinalFailure` runs with its payload.
 */
export function startQueueWorker<Schema extends z.ZodType, Result>(
  job: Pick<JobDefinition<Schema>, 'queue' | 'schema'>,
  processor: Processor<unknown, Result>,
  options: QueueWorkerOptions<z.infer<Schema>>,
): Worker<unknown, Result> {
  const { logger, redisWatch } = options;
  const worker = new Worker<unknown, Result>(job.queue, processor, {
    connection: options.connection,
    prefix: queuePrefix(options.keyPrefix),
    concurrency: options.concurrency,
    ...(options.stalledIntervalMs !== undefined ? { stalledInterval: options.stalledIntervalMs } : {}),
    ...(options.lockDurationMs !== undefined ? { lockDuration: options.lockDurationMs } : {}),
    ...(options.maxStalledCount !== undefined ? { maxStalledCount: options.maxStalledCount } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
  });
  const queue = job.queue;
  let noReplicasWarnedAt = 0;
  worker.on('error', (err) => {
    if (isRedisOutageEcho(err, redisWatch)) return;
    if (isNotReplicated(err)) {
      // A primary refusing writes for want of replicas (`min-replicas-to-write`, a failover under way): BullMQ
      // retries by itself; one warning every 10 s, not a line per refused command.
      if (Date.now() - noReplicasWarnedAt > 10_000) {
        noReplicasWarnedAt = Date.now();
        logger.warn({ queue, err: err.message }, 'redis refuses writes: not enough replicas');
      }
      return;
    }
    // A lock lost (Redis away longer than the lock, or a blocked event loop): worth a warning, not a person.
    const lostLock = /(?:could not renew lock|Missing lock|Lock mismatch) for job ([^.\s]+)/.exec(
      err.message,
    );
    if (lostLock) {
      logger.warn({ queue, jobId: lostLock[1], err: err.message }, 'job lock lost');
      return;
    }
    logger.error({ queue, err }, 'queue worker error');
  });
  worker.on('failed', (failed, err) => {
    if (!failed) return;
    const finalFailure =
      err.name === 'UnrecoverableError' || failed.attemptsMade >= (failed.opts.attempts ?? 1);
    if (!finalFailure) {
      logger.warn(
        { queue, jobId: failed.id, err: err.message, attempt: failed.attemptsMade },
        'job will retry',
      );
      return;
    }
    logger.error({ queue, jobId: failed.id, err: err.message }, 'job failed for good');
    const parsed = job.schema.safeParse(failed.data);
    if (!options.onFinalFailure || !parsed.success) return;
    options
      .onFinalFailure(parsed.data)
      .catch((error: unknown) => logger.error({ queue, err: error }, 'could not settle a failed job'));
  });
  return worker;
}
