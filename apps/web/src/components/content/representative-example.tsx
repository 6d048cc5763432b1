import { formatApr, formatUsd, representativeExample } from '@funnel/contracts/rules/representative-example';

/**
 * Spec §1's representative loan: $2,500 over 12 monthly payments at a 10 % interest rate with a 3 % origination
 * fee. The spec calls the 10 % an APR, but an APR includes the fee (issue 25): it is the interest rate, and the
 * APR, computed, is 15.8 % (docs/decisions-addendum.md).
 */
export const REPRESENTATIVE_TERMS = {
  principal: 2500,
  months: 12,
  interestRatePercent: 10,
  feePercent: 3,
} as const;

const example = representativeExample(REPRESENTATIVE_TERMS);

/**
 * The representative example as a sentence, every figure computed by the contracts' amortisation rule rather than
 * typed in, so the disclosure cannot drift from the terms it names.
 */
export function RepresentativeExample() {
  const { principal, months, interestRatePercent, feePercent } = REPRESENTATIVE_TERMS;
  const borrowed = formatUsd(principal * 100, { wholeDollars: true });
  return (
    <>
      Borrowing {borrowed} for {months} months at a {interestRatePercent}% interest rate with a {feePercent}%
      origination fee ({formatUsd(example.feeCents, { wholeDollars: true })}, deducted from the {borrowed}{' '}
      paid out) means {months} monthly payments of <strong>{formatUsd(example.monthlyPaymentCents)}</strong>.
      You would repay <strong>{formatUsd(example.totalPaidCents, { wholeDollars: true })}</strong> in total,
      of which <strong>{formatUsd(example.interestCents)}</strong> is interest. With the fee, the APR is{' '}
      <strong>{formatApr(example.aprPercent)}</strong>.
    </>
  );
}
