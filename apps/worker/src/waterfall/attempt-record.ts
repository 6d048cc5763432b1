import type { MappedFieldError } from '@funnel/contracts/buyer-field-errors';
import type { AttemptRanking, BuyerAttemptResult, LeadEvent } from '@funnel/contracts/lead-events';

/** How one attempt ended, as the audit trail, the reports and the metrics see it. */
export type AttemptResult = BuyerAttemptResult;

export interface AttemptRecord {
  leadId: string;
  attemptKey: string;
  index: number;
  buyer: string;
  tier: number;
  floor?: number;
  result: AttemptResult;
  /** How a timed-out or failed call ended ('timeout', 'queue_timeout', 'response_too_large', 'http_5xx', …). */
  errorKind?: string;
  price?: number;
  latencyMs: number;
  fieldErrors: MappedFieldError[];
  at: string;
  /** In an auction: the step's place in the lead's ranking and its inputs (ADR 0020). */
  ranking?: AttemptRanking;
}

/** The system-of-record event of an attempt; its id is the attempt's key, so a retold attempt is one event. */
export function attemptEvent(attempt: AttemptRecord): LeadEvent {
  return {
    eventId: `attempt:${attempt.attemptKey}`,
    leadId: attempt.leadId,
    at: attempt.at,
    type: 'buyer_attempt',
    attemptKey: attempt.attemptKey,
    step: attempt.index,
    buyer: attempt.buyer,
    tier: attempt.tier,
    ...(attempt.floor !== undefined ? { floor: attempt.floor } : {}),
    result: attempt.result,
    ...(attempt.errorKind ? { errorKind: attempt.errorKind } : {}),
    ...(attempt.price !== undefined ? { price: attempt.price } : {}),
    latencyMs: Math.round(attempt.latencyMs),
    fieldErrors: attempt.fieldErrors,
    ...(attempt.ranking ? { ranking: attempt.ranking } : {}),
  };
}
