import { ApplyAgainWhen, DuplicateText, isDuplicate } from '../components/duplicate-text';
import { OutcomeScreen } from '../components/outcome-screen';
import styles from './redirect-upgrade-screen.module.css';

function NoLenderText() {
  return (
    <>
      <p>No lender in our network was available to answer your request just now. A few useful tips:</p>
      <ul className={styles.tips}>
        <li>Keep an eye on your email and phone: a lender may still contact you about your request.</li>
        <li>
          <ApplyAgainWhen after="this one" /> A smaller amount is easier for lenders to approve.
        </li>
        <li>
          Check your credit report for free at{' '}
          <a href="https://www.annualcreditreport.com" target="_blank" rel="noopener noreferrer">
            AnnualCreditReport.com<span className="visually-hidden"> (opens in a new tab)</span>
          </a>{' '}
          and ask for any mistakes to be corrected.
        </li>
      </ul>
    </>
  );
}

/**
 * /redirect-upgrade: no lender answered in time (or the network could not be reached), with tips for what to do
 * next; or the borrower is a duplicate, told so. When a fallback offer is configured, the browser goes there
 * after 2 s.
 */
export default function RedirectUpgradeScreen() {
  return (
    <OutcomeScreen
      title={(outcome) =>
        isDuplicate(outcome)
          ? 'We are sorry! You have already sent us a request'
          : 'We are sorry! The lender is not around now...'
      }
      continueLabel="Continue to the offer now"
    >
      {(outcome) => (isDuplicate(outcome) ? <DuplicateText /> : <NoLenderText />)}
    </OutcomeScreen>
  );
}
