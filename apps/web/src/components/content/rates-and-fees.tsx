import { formatUsd, representativeExample } from '@funnel/contracts/rules/representative-example';
import styles from './content.module.css';

const TERMS = { principal: 2500, months: 12, aprPercent: 10, feePercent: 3 } as const;
const example = representativeExample(TERMS);

/** The Rates & Fees disclosure, with spec §1's representative example computed rather than typed in. */
export function RatesAndFees() {
  return (
    <div className={styles.prose}>
      <p>
        We are not a lender and we never charge you for our service. The lender you are connected with sets
        the annual percentage rate (APR), fees and repayment terms, and must show them to you before you
        accept a loan.
      </p>
      <p>
        APRs and loan lengths depend on the lender, your credit and the state you live in. Some lenders charge
        an origination fee, and late or missed payments can add fees and affect your credit.
      </p>
      <h3 className={styles.subheading}>Representative example</h3>
      <p>
        If you borrow {formatUsd(TERMS.principal * 100, { wholeDollars: true })} for {TERMS.months / 12} year
        at {TERMS.aprPercent}% APR with a {TERMS.feePercent}% origination fee, you would pay{' '}
        <strong>{formatUsd(example.monthlyPaymentCents)}</strong> a month, or{' '}
        <strong>{formatUsd(example.totalPaidCents, { wholeDollars: true })}</strong> in total, of which{' '}
        {formatUsd(example.interestCents)} is interest.
      </p>
    </div>
  );
}
