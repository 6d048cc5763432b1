import type { OutcomeReasonRow } from '@funnel/contracts/reports';

/** What each outcome reason the worker and the BFF record means, in an operator's words. */
const REASON_LABELS: Record<string, string> = {
  all_buyers_declined: 'Every buyer that answered declined',
  no_buyer_decided: 'No buyer decided in time',
  no_eligible_buyer: 'No buyer takes such leads',
  deadline: 'Decision window passed',
  unreachable: 'Lender network unreachable',
  duplicate: 'Duplicate borrower (not sent)',
  upstream_rejected: 'Lender network rejected it',
  internal_error: 'Internal error',
  screened_out: 'Blocked by screening (never sent to buyers)',
};

export const OUTCOME_LABELS: Record<OutcomeReasonRow['outcome'], string> = {
  rejected: 'Rejected',
  no_lender: 'No lender',
};

/** A reason's label; an unknown one (a new reason, an HTTP status) shows as recorded. */
export function outcomeReasonLabel(reason: string | null): string {
  if (reason === null) return 'Not recorded';
  return REASON_LABELS[reason] ?? reason;
}
