import { OutcomeScreen } from '../components/outcome-screen';

/** /redirect-upstart: the lead was sold to a partner program; the browser goes to its offer after 2 s. */
export default function RedirectUpstartScreen() {
  return (
    <OutcomeScreen
      title="Suitable program found, REDIRECTING..."
      continueLabel="Continue to the program's site now"
      withAddress={<p>We are taking you to its site.</p>}
      withoutAddress={<p>The program will contact you by email or phone about its offer.</p>}
    >
      <p>A partner program in our network can consider your request.</p>
    </OutcomeScreen>
  );
}
