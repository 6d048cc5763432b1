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
