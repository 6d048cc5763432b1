import type { LeadEvent } from '@funnel/contracts/lead-events';
import { isFinalOutcome } from '@funnel/contracts/lead-outcome';
import { eventId, type EventOutbox } from '@funnel/lead-store/event-outbox';
import type { LeadStore } from '@funnel/lead-store/lead-store';

/**
 * What the worker adds to the system of record when a lead's outcome is final: the outcome, the host the
 * borrower is sent to (never the address), and the seconds from submission to decision. One event per lead
 * (its id is the lead's), however often the outcome is settled.
 */
export function createOutcomeRecorder(deps: {
  store: Pick<LeadStore, 'getProgress'>;
  events: Pick<EventOutbox, 'append'>;
}) {
  return async function recordOutcome(leadId: string): Promise<void> {
    const progress = await deps.store.getProgress(leadId);
    const outcome = progress?.outcome;
    if (!outcome || !isFinalOutcome(outcome.outcome)) return;
    const submittedAt = progress.submission ? Date.parse(progress.submission.submittedAt) : NaN;
    const seconds = (Date.parse(outcome.at) - submittedAt) / 1000;
    const event: LeadEvent = {
      eventId: eventId(leadId, 'outcome'),
      leadId,
      at: outcome.at,
      type: 'outcome',
      outcome: outcome.outcome,
      ...(outcome.reason ? { reason: outcome.reason } : {}),
      ...(outcome.redirectUrl ? { redirectHost: new URL(outcome.redirectUrl).host } : {}),
      ...(outcome.partnerOffer ? { partnerOffer: true } : {}),
      ...(Number.isFinite(seconds) && seconds >= 0 ? { secondsToDecision: seconds } : {}),
    };
    await deps.events.append(event);
  };
}
