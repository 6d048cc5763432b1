import { RETURN_REASON_LABELS } from '@funnel/contracts/buyer-api';
import { SUBMIT_BUTTONS } from '@funnel/contracts/consent';
import type { JourneyEntry } from '@funnel/contracts/lead-journey';
import type { AttemptRanking, DeliveryChannel } from '@funnel/contracts/lead-events';
import { DUPLICATE_REASON, type Outcome } from '@funnel/contracts/lead-outcome';
import { LOAN_REASONS, US_STATES, labelFor } from '@funnel/contracts/options';
import { FUNNEL_POSITION_LABELS } from '@funnel/contracts/reports';
import type { ScreeningCheck, ScreeningReason, ScreeningVerdictKind } from '@funnel/contracts/screening';
import { formatMoney } from './number-format';
import { outcomeReasonLabel } from './outcome-reason-labels';

/** One line of a lead's timeline in an operator's words: what happened, its particulars, and where to go next. */
export interface JourneyLine {
  title: string;
  details: string[];
  /** Another lead's journey this line refers to (a duplicate's original). */
  link?: { to: string; text: string };
}

/**
 * A duplicate borrower's lead: submitted, never sent to buyers; `original` is the lead they applied with first
 * (unknown for a lead recorded before its outcome named it).
 */
export interface DuplicateOf {
  original: string | undefined;
}

/** Whether the journey is a duplicate borrower's (its outcome says so), and of which lead. */
export function duplicateOf(timeline: readonly JourneyEntry[]): DuplicateOf | undefined {
  for (const entry of timeline) {
    if (entry.kind === 'event' && entry.event.type === 'outcome' && entry.event.reason === DUPLICATE_REASON) {
      return { original: entry.event.duplicateOf };
    }
  }
  return undefined;
}

/** Screening's verdicts in a word (lead search), and in the journey's line. */
export const SCREENING_WORDS: Record<ScreeningVerdictKind, string> = {
  pass: 'Passed',
  flag: 'Flagged',
  block: 'Blocked',
};
const SCREENING_VERDICT_WORDS: Record<ScreeningVerdictKind, string> = {
  pass: 'passed',
  flag: 'flagged',
  block: 'blocked, not sent to buyers',
};

/** Screening's findings in words (the journey and the quality report). */
export const SCREENING_REASON_WORDS: Record<ScreeningReason, string> = {
  phone_litigator: 'Phone on the litigator list',
  phone_do_not_call: 'Phone on the Do Not Call registry',
  do_not_call_copy_stale: 'Do Not Call copy older than 31 days',
  email_disposable: 'Disposable email address',
  email_no_domain: "Email's domain does not exist",
  email_no_mail: "Email's domain takes no mail",
  ip_velocity: 'Many leads from its address within the hour',
};

const SCREENING_CHECK_WORDS: Record<ScreeningCheck, string> = {
  litigator: 'litigator list',
  do_not_call: 'Do Not Call registry',
  email: "email's domain",
  velocity: 'leads from its address',
};

/** Where a lead's journey is in the console. */
export const journeyPath = (leadId: string) => `/operator/leads/${encodeURIComponent(leadId)}`;

export const OUTCOME_WORDS: Record<Outcome, string> = {
  pending: 'Pending',
  sold: 'Sold',
  rejected: 'Rejected',
  no_lender: 'No lender',
};

const ATTEMPT_WORDS: Record<string, string> = {
  sold: 'bought it',
  rejected: 'declined',
  invalid: 'refused fields',
  timeout: 'did not answer in time',
  error: 'failed',
  capped: 'skipped: its cap was full',
};

const DELIVERY_WORDS: Record<DeliveryChannel, string> = {
  partner_webhook: 'Webhook to partner',
  affiliate_postback: 'Postback to affiliate',
  buyer_opt_out: 'Opt-out to buyer',
};

const DELIVERY_RESULT_WORDS = {
  delivered: 'delivered',
  failed: 'failed',
  refused: 'not sent',
} as const;

const share = (p: number) => `${Math.round(p * 100)} %`;

/** Why the auction offered the lead here, in that place (ADR 0020): its expected value and what it came from. */
function rankingWords(r: AttemptRanking): string {
  return (
    `Ranked ${r.rank}: ${r.source} ${formatMoney(r.price)} × accepted ${share(r.pAccepted)} ` +
    `(${r.accepted} of ${r.posts}) × kept ${share(1 - r.pReturned)} (${r.returned} of ${r.settledSales} ` +
    `returned) = ${formatMoney(r.expectedValue)}`
  );
}

const words = (code: string) => code.replaceAll('_', ' ');

/** The label the funnel shows for a loan reason or a state; a code it does not list shows as recorded. */
const BUTTON_LABELS: ReadonlyMap<string, string> = new Map(Object.entries(SUBMIT_BUTTONS));
const loanReasonLabel = (code: string) => labelFor<string>(LOAN_REASONS, code) ?? code;
const stateLabel = (code: string) => labelFor<string>(US_STATES, code) ?? code;

const present = (...parts: Array<string | false | null | undefined>): string[] =>
  parts.filter((part): part is string => typeof part === 'string' && part !== '');

/**
 * Describes a timeline entry; an event this page does not know yet shows its kind and fields as recorded.
 * `duplicate`: the lead was a duplicate borrower's ({@link duplicateOf}), so it was submitted but never sent.
 */
export function journeyLine(entry: JourneyEntry, duplicate?: DuplicateOf): JourneyLine {
  if (entry.kind === 'consent') {
    const { consent } = entry;
    return {
      title: 'Consent given',
      details: present(
        `Button “${BUTTON_LABELS.get(consent.button) ?? consent.button}”, text version ${consent.version}`,
        `Page ${consent.pageUrl}`,
        consent.partnerListVersion && `Partner list ${consent.partnerListVersion}`,
        consent.trustedForm ? 'TrustedForm certificate kept' : 'No TrustedForm certificate',
        `Evidence kept until ${consent.retainedUntil.slice(0, 10)}`,
      ),
    };
  }
  if (entry.kind === 'privacy_request') {
    const { request } = entry;
    return {
      title: `Privacy request: ${words(request.type)}`,
      details: present(`From ${request.source}`, request.erasedAt && `Erased ${request.erasedAt}`),
    };
  }
  const { event } = entry;
  switch (event.type) {
    case 'created':
      return {
        title: event.source === 'partner' ? `Posted by partner ${event.partner ?? ''}`.trim() : 'Landed',
        details: present(
          event.idempotencyKey && `Idempotency key ${event.idempotencyKey}`,
          event.affiliate && `Affiliate ${event.affiliate}`,
          event.clickId && `Click id ${event.clickId}`,
          event.amount !== undefined && `Amount ${formatMoney(event.amount)}`,
          event.loanReason && `Reason ${loanReasonLabel(event.loanReason)}`,
          event.state && `State ${stateLabel(event.state)}`,
        ),
      };
    case 'step_completed':
      return { title: `Answered: ${FUNNEL_POSITION_LABELS[event.step]}`, details: [] };
    case 'submitted':
      return duplicate
        ? {
            title: 'Submitted: not sent to buyers',
            details: ['The same borrower had applied within the duplicate window'],
          }
        : { title: 'Submitted to buyers', details: [] };
    case 'screened':
      return {
        title: `Screening: ${SCREENING_VERDICT_WORDS[event.verdict]}, score ${event.score}`,
        details: present(
          ...event.reasons.map((reason) => SCREENING_REASON_WORDS[reason]),
          ...event.unchecked.map((check) => `Not checked in time: ${SCREENING_CHECK_WORDS[check]}`),
          `Took ${event.ms} ms`,
        ),
      };
    case 'buyer_attempt':
      return {
        title: `${event.buyer} ${ATTEMPT_WORDS[event.result] ?? event.result}`,
        details: present(
          `Attempt ${event.step + 1}, tier ${event.tier}`,
          event.price !== undefined && `Paid ${formatMoney(event.price)}`,
          event.floor !== undefined && `Floor ${formatMoney(event.floor)}`,
          event.result !== 'capped' && `${event.latencyMs} ms`,
          event.errorKind && `Error: ${event.errorKind}`,
          ...event.fieldErrors.map((error) => `${error.field} (${error.buyerField}): ${error.description}`),
          event.ranking && rankingWords(event.ranking),
        ),
      };
    case 'outcome':
      return {
        title: `Outcome: ${OUTCOME_WORDS[event.outcome]}`,
        details: present(
          event.reason && outcomeReasonLabel(event.reason),
          event.reason === DUPLICATE_REASON &&
            !event.duplicateOf &&
            'The lead they applied with first was not recorded',
          event.redirectHost && `Sent to ${event.redirectHost}`,
          event.partnerOffer && "Shown a partner's offer",
          event.secondsToDecision !== undefined && `Decided in ${Math.round(event.secondsToDecision)} s`,
        ),
        ...(event.duplicateOf
          ? { link: { to: journeyPath(event.duplicateOf), text: `Original lead ${event.duplicateOf}` } }
          : {}),
      };
    case 'return_queued':
      return {
        title: `${event.buyer} asked to return it`,
        details: [
          `Reason: ${RETURN_REASON_LABELS[event.reason]}`,
          `Price ${formatMoney(event.price)}`,
          'Waiting for an operator',
        ],
      };
    case 'returned':
      return {
        title: `Returned by ${event.buyer}`,
        details: [
          `Reason: ${RETURN_REASON_LABELS[event.reason]}`,
          `Revenue reversed ${formatMoney(event.price)}`,
          event.approvedBy === 'rule'
            ? "Approved by the buyer's return rule"
            : `Approved by ${event.operator ?? 'an operator (not recorded)'}`,
        ],
      };
    case 'return_rejected':
      return { title: `Return by ${event.buyer} refused`, details: ['The sale stands'] };
    case 'payout_reversed':
      return {
        title: 'Affiliate payout reversed',
        details: [`${event.affiliate}: ${formatMoney(event.amount)}`],
      };
    case 'return_reversed':
      return {
        title:
          event.from === 'approved'
            ? `Return by ${event.buyer} reversed: the sale stands`
            : `Refused return by ${event.buyer} reversed: approved`,
        details: present(
          event.from === 'approved'
            ? `Revenue restored ${formatMoney(event.price)}`
            : `Revenue reversed ${formatMoney(event.price)}`,
          `Why: ${event.reason}`,
          event.operator && `By ${event.operator}`,
        ),
      };
    case 'payout_restored':
      return {
        title: 'Affiliate payout restored',
        details: [`${event.affiliate}: ${formatMoney(event.amount)}`],
      };
    case 'converted':
      return {
        title: event.funded ? `Funded by ${event.buyer}` : `Not funded by ${event.buyer}`,
        details: present(event.amount !== undefined && `Loan ${formatMoney(event.amount)}`),
      };
    case 'delivery_attempt':
      return {
        title: `${DELIVERY_WORDS[event.channel]} ${event.target}: ${DELIVERY_RESULT_WORDS[event.result]}`,
        details: present(
          `Attempt ${event.attempt} of ${event.maxAttempts}, told ${words(event.event)}`,
          event.host && `To ${event.host}`,
          event.status !== undefined && `HTTP ${event.status}`,
          event.errorKind && `Error: ${words(event.errorKind)}`,
          `${event.latencyMs} ms`,
          event.nextAttemptAt &&
            `Next attempt about ${event.nextAttemptAt.replace('T', ' ').slice(0, 19)} UTC`,
          event.gaveUp && 'Gave up: no more attempts',
        ),
      };
    case 'erased':
      return {
        title: 'Personal data erased',
        details: [`Deletion request ${event.requestId}`],
      };
    default: {
      const { eventId: _id, leadId: _lead, at: _at, type, ...fields } = event as Record<string, unknown>;
      return {
        title: words(String(type)),
        details: Object.entries(fields).map(([key, value]) => `${key}: ${JSON.stringify(value)}`),
      };
    }
  }
}
