import { Link } from 'react-router';
import { LenderDisclaimer } from '@/components/content/lender-disclaimer';
import { ContentPage } from '@/components/layout/content-page';
import { BRAND } from '@/config/brand';

/** /disclaimer: what the service is not and what it cannot promise. */
export default function DisclaimerPage() {
  return (
    <ContentPage title="Disclaimer">
      <h2>We are not a lender</h2>
      <LenderDisclaimer />
      <h2>No guarantee of an offer or of its terms</h2>
      <p>
        Lenders decide on their own criteria, which can include your income, your credit history and the laws
        of your state. We cannot promise that you will receive an offer, how much it will be for, how quickly
        the money will arrive or what it will cost. Compare every offer with others available to you before
        you accept it.
      </p>
      <h2>Credit checks</h2>
      <p>
        Lenders and partners may check your credit with the consumer reporting agencies. A soft inquiry does
        not affect your credit score; if you continue with a lender's offer, the lender may make a hard
        inquiry, which can lower your credit score.
      </p>
      <h2>How we are paid</h2>
      <p>
        {BRAND.name} is free for you. Lenders and marketing partners pay us for the requests they receive,
        which never changes the price of a loan you are offered.
      </p>
      <h2>Not financial advice</h2>
      <p>
        The information on this site is general and is not financial, legal or tax advice. Borrowing costs
        money: borrow only what you need and what you can repay on time, and seek independent advice if you
        are unsure.
      </p>
      <h2>Other websites</h2>
      <p>
        When you follow a link to a lender or partner, you leave our site. Their own terms and privacy
        policies apply there, and we are not responsible for their content or services.
      </p>
      <p>
        Questions? Read our <Link to="/frequently-asked-questions">FAQ</Link> or{' '}
        <Link to="/contact-us">contact us</Link>.
      </p>
    </ContentPage>
  );
}
