import { formatUsd, representativeExample } from '@funnel/contracts/rules/representative-example';

/** Spec §1's representative loan: $2,500 over 12 monthly payments at 10 % APR with a 3 % origination fee. */
export const REPRESENTATIVE_TERMS = { principal: 2500, months: 12, aprPercent: 10, feePercent: 3 } as const;

const example = representativeExample(REPRESENTATIVE_TERMS);

/**
 * The representative example as a sentence, every figure computed by the contracts' amortisation rule rather than
 * typed in, so the disclosure cannot drift from the terms it names.
 */
export function RepresentativeExample() {
  const { principal, months, aprPercent, feePercent } = REPRESENTATIVE_TERMS;
  return (
    <>
      Borrowing {formatUsd(principal * 100, { wholeDollars: true })} for {months} months at {aprPercent}% APR
      with a {feePercent}% origination fee ({formatUsd(example.feeCents, { wholeDollars: true })}) means{' '}
      {months} monthly payments of <strong>{formatUsd(example.monthlyPaymentCents)}</strong>. You would repay{' '}
      <strong>{formatUsd(example.totalPaidCents, { wholeDollars: true })}</strong> in total, of which{' '}
      <strong>{formatUsd(example.interestCents)}</strong> is interest.
    </>
  );
}
