import { ApplyAgainWhen, DuplicateText, isDuplicate } from '../components/duplicate-text';
import { OutcomeScreen } from '../components/outcome-screen';

/**
 * /reject-page: the lenders declined. The screen states the outcome; when the network gave a reject address, it
 * says the browser goes there in 2 s (docs/product-rules.md §outcome-screens), without a 'verifying' counter.
 */
export default function RejectScreen() {
  return (
    <OutcomeScreen
      title="Sorry, we were unable to connect you with a lender"
      continueLabel="Continue now"
      redirectDestination="the lender's page"
      withoutAddress={(outcome) =>
        isDuplicate(outcome) ? null : (
          <p>
            <ApplyAgainWhen after="this one" />
          </p>
        )
      }
    >
      {(outcome) =>
        isDuplicate(outcome) ? (
          <DuplicateText />
        ) : (
          <p>None of the lenders in our network could make you an offer this time.</p>
        )
      }
    </OutcomeScreen>
  );
}
