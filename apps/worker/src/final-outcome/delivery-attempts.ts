import type { Job } from 'bullmq';
import type { DeliveryChannel, LeadEvent } from '@funnel/contracts/lead-events';
import type { EventOutbox } from '@funnel/lead-store/event-outbox';
import { WebhookAddressRefusedError } from './webhook-sender.js';

/** How one attempt ended: an answer's status, or an error's kind (never its message: it can carry the URL). */
export type AttemptEnd =
  { result: 'delivered' | 'failed'; status: number } | { result: 'failed' | 'refused'; errorKind: string };

const ERROR_KINDS: Record<string, string> = {
  UND_ERR_CONNECT_TIMEOUT: 'timeout',
  UND_ERR_HEADERS_TIMEOUT: 'timeout',
  UND_ERR_BODY_TIMEOUT: 'timeout',
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
  UND_ERR_SOCKET: 'connection_reset',
  ENOTFOUND: 'dns',
  EAI_AGAIN: 'dns',
  ENOTPUBLIC: 'not_public',
  ERR_INVALID_URL: 'invalid_url',
};

/** What kind of failure a call without an answer was, in a word an operator can act on. */
export function errorKindOf(error: unknown): string {
  if (error instanceof WebhookAddressRefusedError) return 'not_public';
  const code = (error as { code?: unknown } | undefined)?.code;
  return (typeof code === 'string' && ERROR_KINDS[code]) || 'network';
}

/** BullMQ's wait before the next attempt after attempt `attempt` failed (its built-in backoffs, no jitter). */
function retryDelayMs(job: Job, attempt: number): number {
  const backoff = job.opts.backoff;
  if (backoff === undefined) return 0;
  if (typeof backoff === 'number') return backoff;
  const delay = backoff.delay ?? 0;
  return backoff.type === 'exponential' ? Math.round(2 ** (attempt - 1) * delay) : delay;
}

export interface DeliveryAttempt {
  leadId: string;
  channel: DeliveryChannel;
  target: string;
  url: string;
  event: string;
  /** When the attempt started and ended (ms since the epoch). */
  started: number;
  ended: number;
  end: AttemptEnd;
}

/**
 * An attempt as the lead's `delivery_attempt` event (issue 33): the host and never the address, the attempt's
 * number out of the job's, and when the queue tries again or that it gave up. Its id is fixed per attempt, so a
 * job that records an attempt twice (a stalled job run again) writes it once.
 */
export function deliveryAttemptEvent(job: Job, attempt: DeliveryAttempt): LeadEvent {
  const number = job.attemptsMade + 1;
  const maxAttempts = Math.max(number, job.opts.attempts ?? 1);
  const failed = attempt.end.result !== 'delivered';
  const gaveUp = failed && (attempt.end.result === 'refused' || number >= maxAttempts);
  let host: string | undefined;
  try {
    host = new URL(attempt.url).host;
  } catch {
    host = undefined;
  }
  return {
    // The target too: a lead's opt-out goes to each of its buyers on one channel.
    eventId: `${attempt.leadId}.delivery.${attempt.channel}.${attempt.target}.${attempt.event}.${number}`,
    leadId: attempt.leadId,
    at: new Date(attempt.started).toISOString(),
    type: 'delivery_attempt',
    channel: attempt.channel,
    target: attempt.target,
    ...(host ? { host } : {}),
    event: attempt.event,
    attempt: number,
    maxAttempts,
    ...attempt.end,
    latencyMs: Math.max(0, Math.round(attempt.ended - attempt.started)),
    ...(failed && !gaveUp
      ? { nextAttemptAt: new Date(attempt.ended + retryDelayMs(job, number)).toISOString() }
      : {}),
    gaveUp,
  };
}

/** Appends the attempt's event to the outbox, when there is a system of record to drain it into. */
export async function recordDeliveryAttempt(
  events: Pick<EventOutbox, 'append'> | undefined,
  job: Job,
  attempt: DeliveryAttempt,
): Promise<void> {
  await events?.append(deliveryAttemptEvent(job, attempt));
}
