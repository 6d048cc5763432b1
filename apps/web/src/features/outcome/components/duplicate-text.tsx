import { DUPLICATE_REASON, type LeadOutcome } from '@funnel/contracts/lead-outcome';
import { usePublicConfig } from '@/lib/public-config';

/** Whether the outcome is a duplicate borrower's (nothing was sent to a lender). */
export const isDuplicate = (outcome: LeadOutcome) => outcome.reason === DUPLICATE_REASON;

/**
 * A borrower who already applied within the duplicate window: nothing was sent to a lender, and trying again
 * before the window ends gives the same answer, so the screen says what happened and when they may apply again
 * (docs/decisions-addendum.md), never "try again later".
 */
export function DuplicateText() {
  return (
    <>
      <p>
        We received a loan request from you recently, so we have not sent this one to the lenders in our
        network again. Your earlier request is the one lenders consider.
      </p>
      <p>
        <ApplyAgainWhen after="your earlier one" />
      </p>
    </>
  );
}

/**
 * When the borrower may send a new request: a request within the duplicate window of an earlier one is a
 * duplicate and is not sent to lenders, so no screen says "try again later".
 */
export function ApplyAgainWhen({ after }: { after: string }) {
  const days = usePublicConfig().data?.duplicateWindowDays;
  return days ? `You can send a new request ${days} days after ${after}.` : null;
}
