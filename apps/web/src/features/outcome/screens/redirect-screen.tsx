import { OutcomeScreen } from '../components/outcome-screen';

/** /redirect: a lender bought the lead; the browser goes to the lender's offer after 2 s. */
export default function RedirectScreen() {
  return (
    <OutcomeScreen
      title="We've found the program for you!"
      continueLabel="Continue to the lender's site now"
      withoutAddress={<p>The lender will contact you by email or phone about your offer.</p>}
    >
      <p>
        A lender in our network is ready for your request. We are taking you to the lender&apos;s site, where
        you can review its offer.
      </p>
    </OutcomeScreen>
  );
}
