import { OutcomeScreen } from '../components/outcome-screen';

/** /reject-page: the lenders declined; when the network gave a reject address, the browser goes there after 2 s. */
export default function RejectScreen() {
  return (
    <OutcomeScreen
      title="Sorry, we were unable to connect you with a lender"
      continueLabel="Continue now"
      withoutAddress={<p>You can try again later, or with a different amount.</p>}
    >
      <p>None of the lenders in our network could make you an offer this time.</p>
    </OutcomeScreen>
  );
}
