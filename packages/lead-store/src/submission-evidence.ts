import type { ConsentRecord, RetainedConsent } from '@funnel/contracts/consent';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { DUPLICATE_REASON, type Outcome } from '@funnel/contracts/lead-outcome';
import { eventId } from './event-outbox.js';
import type { LeadRecord, StoredFields } from './lead-record.js';
import { retainedConsent } from './retained-consent.js';

export type SubmissionSource = Extract<LeadEvent, { type: 'submitted' }>['source'];

/**
 * What a submission leaves behind besides the lead (docs/adr/0026): the consent evidence kept apart from the lead
 * for the retention period, and the lead events that tell the system of record the lead was submitted. The lead
 * store writes it in the same script that records the submission, and a repeat or the reconciler completes it
 * with the same script when an older submission went without it.
 */
export interface SubmissionEvidence {
  consent: { record: RetainedConsent; ttlMs: number };
  /** In order; none when no system of record drains the lead events. */
  events: readonly LeadEvent[];
}

/** How evidence is kept: for how long, and whether a system of record takes the lead events. */
export interface EvidencePolicy {
  /** How long the consent evidence is kept apart from the lead (CONSENT_RETENTION_DAYS). */
  retentionMs: number;
  /** Whether a system of record drains the lead events; without one none are appended (nothing would read them). */
  withEvents: boolean;
}

/** The lead was submitted, in the trace `traceId` when tracing is on (the journey links to it). */
export function submittedEvent(
  leadId: string,
  source: SubmissionSource,
  at: Date,
  traceId?: string,
): LeadEvent {
  return {
    eventId: eventId(leadId, 'submitted'),
    leadId,
    at: at.toISOString(),
    type: 'submitted',
    source,
    ...(traceId ? { traceId } : {}),
  };
}

/**
 * The outcome of a duplicate borrower's lead: decided at once, never posted. It names the lead the borrower applied
 * with first, when known, so the operator can follow it there.
 */
export function duplicateOutcomeEvent(
  leadId: string,
  outcome: Outcome,
  at: Date,
  original?: string,
): LeadEvent {
  return {
    eventId: eventId(leadId, 'outcome'),
    leadId,
    at: at.toISOString(),
    type: 'outcome',
    outcome,
    reason: DUPLICATE_REASON,
    secondsToDecision: 0,
    ...(original ? { duplicateOf: original } : {}),
  };
}

/**
 * The evidence of one submission. The same inputs give the same evidence, so the first request and any repeat
 * or repair write the same thing: event ids are fixed per lead and the consent record is the one on the lead.
 */
export function submissionEvidence(
  submission: {
    leadId: string;
    consent: ConsentRecord;
    fields: StoredFields;
    source: SubmissionSource;
    submittedAt: Date;
    /** The trace the submission ran in, when tracing is on (a repair has none). */
    traceId?: string | undefined;
    /**
     * A duplicate borrower's lead: the outcome it ended with at once (its event goes with the submission's) and,
     * when known, the lead the borrower applied with first.
     */
    duplicate?: { outcome: Outcome; of?: string | undefined } | undefined;
    /** Events that come before the submission's (a partner lead's creation and steps, written with it). */
    before?: readonly LeadEvent[];
  },
  policy: EvidencePolicy,
): SubmissionEvidence {
  const { leadId, submittedAt } = submission;
  const events = [
    ...(submission.before ?? []),
    submittedEvent(leadId, submission.source, submittedAt, submission.traceId),
    ...(submission.duplicate
      ? [duplicateOutcomeEvent(leadId, submission.duplicate.outcome, submittedAt, submission.duplicate.of)]
      : []),
  ];
  return {
    consent: {
      record: retainedConsent(leadId, submission.consent, submission.fields),
      ttlMs: policy.retentionMs,
    },
    events: policy.withEvents ? events : [],
  };
}

/**
 * The evidence a stored, submitted lead should have, from what the lead holds (its consent record, contact,
 * submission time, source and, for a duplicate, its outcome); undefined for a lead not submitted.
 */
export function storedSubmissionEvidence(
  lead: LeadRecord,
  policy: EvidencePolicy,
): SubmissionEvidence | undefined {
  if (!lead.submission || !lead.consent) return undefined;
  const duplicate = lead.outcome?.reason === DUPLICATE_REASON ? lead.outcome.outcome : undefined;
  return submissionEvidence(
    {
      leadId: lead.id,
      consent: lead.consent,
      fields: lead.fields,
      source: lead.partner ? 'partner' : 'funnel',
      submittedAt: new Date(lead.submission.submittedAt),
      // A repair knows the outcome, not the lead applied with first: the event then names none.
      duplicate: duplicate === undefined || duplicate === 'pending' ? undefined : { outcome: duplicate },
    },
    policy,
  );
}
