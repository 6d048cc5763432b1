import { RepresentativeExample } from './representative-example';
import styles from './content.module.css';

/** The Rates & Fees disclosure (spec §1), with the representative example computed rather than typed in. */
export function RatesAndFees() {
  return (
    <div className={styles.prose}>
      <p>
        Using our service is free: we never charge you for submitting a request. If a lender makes you an
        offer, that lender sets the annual percentage rate (APR), the fees and the repayment schedule, and
        must show them to you before you agree to anything.
      </p>
      <h3 className={styles.subheading}>Annual percentage rate</h3>
      <p>
        The APR is the yearly cost of a loan, interest and lender fees included. It depends on the lender, the
        amount and length of the loan, your credit history and the state you live in, so we cannot quote it in
        advance.
      </p>
      <h3 className={styles.subheading}>Fees and late payments</h3>
      <p>
        Some lenders deduct an origination fee from the amount they pay out. Paying late or missing a payment
        can lead to extra fees, collection activity and a lower credit score; your loan agreement says which
        apply.
      </p>
      <h3 className={styles.subheading}>Representative example</h3>
      <p>
        <RepresentativeExample />
      </p>
    </div>
  );
}
