import { affiliateOf } from '@funnel/contracts/attribution';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import type { StepName } from '@funnel/contracts/steps';
import type { Tracking } from '@funnel/contracts/tracking';
import { eventId } from '@funnel/lead-store/event-outbox';
import type { ClientLead } from './lead-context.js';

/**
 * The lead events the BFF appends for the system of record (issue 10): what happened to a lead and when, with
 * attribution and the landing answers, never personal data.
 */

export type LeadSource = 'funnel' | 'partner';

/**
 * The `created` event of a lead: attribution and the landing answers, never personal data; for a partner lead,
 * the partner and the idempotency key it posted with, by which the operator finds it (issue 33).
 */
export function createdEvent(
  leadId: string,
  source: LeadSource,
  answers: ClientLead,
  tracking: Record<string, unknown>,
  at: Date,
  partner?: { partnerId: string; idempotencyKey?: string | undefined },
): LeadEvent {
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const affiliate = affiliateOf(tracking as Partial<Tracking>);
  const clickId = text(tracking.clickId);
  const utmSource = text(tracking.utmSource);
  const campaignType = text(tracking.campaignType);
  const loanReason = text(answers.loanReason);
  const state = text(answers.state);
  return {
    eventId: eventId(leadId, 'created'),
    leadId,
    at: at.toISOString(),
    type: 'created',
    source,
    ...(partner ? { partner: partner.partnerId } : {}),
    ...(partner?.idempotencyKey ? { idempotencyKey: partner.idempotencyKey } : {}),
    ...(affiliate ? { affiliate } : {}),
    ...(clickId ? { clickId } : {}),
    ...(utmSource ? { utmSource } : {}),
    ...(campaignType ? { campaignType } : {}),
    ...(typeof answers.amount === 'number' ? { amount: answers.amount } : {}),
    ...(loanReason ? { loanReason } : {}),
    ...(state ? { state } : {}),
  };
}

/**
 * A step completed. A visitor may save a step again (its event id is then unique); a partner lead completes
 * each step once, all at its creation.
 */
export function stepCompletedEvent(leadId: string, step: StepName, at: Date, repeatable: boolean): LeadEvent {
  return {
    eventId: eventId(leadId, step, repeatable),
    leadId,
    at: at.toISOString(),
    type: 'step_completed',
    step,
  };
}

/** A lead erased on a verified deletion request: its journey in the system of record says so. */
export function erasedEvent(leadId: string, requestId: string, at: Date): LeadEvent {
  return { eventId: eventId(leadId, 'erased'), leadId, at: at.toISOString(), type: 'erased', requestId };
}
