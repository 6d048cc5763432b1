import { OutcomeScreen } from '../components/outcome-screen';

/**
 * /redirect: a lender bought the lead; the browser goes to the lender's offer after 2 s. A sale without an
 * address (status 1 with no redirect, docs/product-rules.md §lender-network-answers) stays here: the lender will contact the borrower.
 */
export default function RedirectScreen() {
  return (
    <OutcomeScreen
      title="We've found the program for you!"
      continueLabel="Continue to the lender's site now"
      withAddress={<p>We are taking you to the lender&apos;s site, where you can review its offer.</p>}
      withoutAddress={<p>The lender will contact you by email or phone about your offer.</p>}
    >
      <p>A lender in our network is ready for your request.</p>
    </OutcomeScreen>
  );
}
