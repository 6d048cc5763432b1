import { OutcomeScreen } from '../components/outcome-screen';
import styles from './redirect-upgrade-screen.module.css';

/**
 * /redirect-upgrade: no lender answered in time (or the network could not be reached). Tips for what to do next;
 * when a fallback offer is configured, the browser goes there after 2 s.
 */
export default function RedirectUpgradeScreen() {
  return (
    <OutcomeScreen
      title="We are sorry! The lender is not around now..."
      continueLabel="Continue to the offer now"
    >
      <p>No lender in our network was available to answer your request just now. A few useful tips:</p>
      <ul className={styles.tips}>
        <li>Keep an eye on your email and phone: a lender may still contact you about your request.</li>
        <li>Lenders&apos; availability changes during the day, so trying again later often helps.</li>
        <li>A smaller amount is easier for lenders to approve.</li>
        <li>
          Check your credit report for free at{' '}
          <a href="https://www.annualcreditreport.com" target="_blank" rel="noopener noreferrer">
            AnnualCreditReport.com<span className="visually-hidden"> (opens in a new tab)</span>
          </a>{' '}
          and ask for any mistakes to be corrected.
        </li>
      </ul>
    </OutcomeScreen>
  );
}
