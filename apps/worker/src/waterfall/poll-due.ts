import { DelayedError, type Job } from 'bullmq';

/**
 * When a parked poll is due, kept in the job's own data so that whichever worker picks the job up can tell how
 * late the poll started: `at` is the due time (ms since the epoch), `attempt` the job's `attemptsMade` when it
 * was parked. A retry after a failure bumps `attemptsMade`, so its run (due after BullMQ's backoff, not at `at`)
 * is not taken for a late poll.
 */
export interface PollDue {
  at: number;
  attempt: number;
}

/**
 * How many seconds after its due time a poll started, or undefined when this run is not a parked poll (the
 * first run, a retry after a failure, or a job whose data carries no due time). A poll promoted early counts 0.
 */
export function pollLatenessSeconds(
  data: unknown,
  attemptsMade: number,
  startedAt: number,
): number | undefined {
  const due = (data as { pollDue?: Partial<PollDue> } | null | undefined)?.pollDue;
  if (!due || typeof due.at !== 'number' || !Number.isFinite(due.at)) return undefined;
  if (due.attempt !== attemptsMade) return undefined;
  return Math.max(0, startedAt - due.at) / 1000;
}

/**
 * Parks the job until `dueAt` (the "process step jobs" pattern: no worker sleeps), with the due time written
 * into the job first (see {@link PollDue}). Always throws BullMQ's `DelayedError`, which the processor lets
 * through.
 */
export async function parkPoll(job: Job, token: string | undefined, dueAt: number): Promise<never> {
  const pollDue: PollDue = { at: dueAt, attempt: job.attemptsMade };
  await job.updateData({ ...(job.data as object), pollDue });
  await job.moveToDelayed(dueAt, token);
  throw new DelayedError();
}

/** How many times in a row the job waited for a full buyer (ADR 0017), kept in the job's data. */
export function bulkheadWaits(data: unknown): number {
  const waits = (data as { bulkheadWaits?: unknown } | null | undefined)?.bulkheadWaits;
  return typeof waits === 'number' && Number.isInteger(waits) && waits >= 0 ? waits : 0;
}

/**
 * Parks the job until `dueAt` because the buyer it needs has every place taken (ADR 0017): like
 * {@link parkPoll}, the job leaves its worker slot, but this run is no poll, so any poll due time is dropped
 * (the next run is not measured as a late poll) and the count of waits goes up by one.
 */
export async function parkWait(job: Job, token: string | undefined, dueAt: number): Promise<never> {
  const { pollDue: _notAPoll, ...data } = job.data as { pollDue?: PollDue };
  await job.updateData({ ...data, bulkheadWaits: bulkheadWaits(job.data) + 1 });
  await job.moveToDelayed(dueAt, token);
  throw new DelayedError();
}

/** Drops the count of waits once the buyer had a place (so the next wait starts short again). */
export async function clearWaits(job: Job): Promise<void> {
  if (bulkheadWaits(job.data) === 0) return;
  const { bulkheadWaits: _done, ...data } = job.data as { bulkheadWaits?: number };
  await job.updateData(data);
}
