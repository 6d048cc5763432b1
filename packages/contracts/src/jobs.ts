import * as z from 'zod';

/**
 * The job catalog: every queue, its job name and its payload schema. Payloads carry ids only, never personal
 * data: the worker reads the lead from the store.
 */
export const SubmitLeadJobSchema = z.object({ leadId: z.string().min(16).max(64) });
export type SubmitLeadJob = z.infer<typeof SubmitLeadJobSchema>;

export const JOBS = {
  submitLead: {
    queue: 'lead-submission',
    name: 'submit-lead',
    schema: SubmitLeadJobSchema,
  },
} as const;

/** BullMQ's key prefix under the deployment's key prefix, shared by producers (BFF) and consumers (worker). */
export function queuePrefix(keyPrefix: string): string {
  return `${keyPrefix}bull`;
}

/**
 * Options of a submit job. `jobId` is the lead id, so a lead has one job however often it is enqueued.
 * Attempts and backoff apply to the submission post; polling is paced by the worker itself.
 */
export const SUBMIT_LEAD_JOB_OPTIONS = {
  attempts: 6,
  backoff: { type: 'exponential', delay: 1000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/** The Redis pub/sub channel (under the key prefix) on which outcome changes are published. */
export const OUTCOME_CHANNEL = 'lead-outcomes';

/** A message on the outcome channel. */
export const OutcomeMessageSchema = z.object({
  leadId: z.string(),
  seq: z.number().int().positive(),
});
export type OutcomeMessage = z.infer<typeof OutcomeMessageSchema>;
