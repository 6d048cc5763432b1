import { Link } from 'react-router';
import { ContentPage } from '@/components/layout/content-page';
import { BRAND } from '@/config/brand';

/**
 * /credit-authorization-agreement: what a visitor authorizes by submitting a request, as seven numbered
 * authorizations (spec §1).
 */
export default function CreditAuthorizationPage() {
  return (
    <ContentPage
      title="Credit Authorization Agreement"
      intro={`When you submit a loan request through ${BRAND.name} by pressing Request Funds or Request Cash, you confirm that you have read this agreement and give the following authorizations.`}
    >
      <ol>
        <li>
          <strong>Your request is a business transaction.</strong> You are starting a business transaction
          with {BRAND.name} and the lenders in our network, asking them to consider you for a loan. This gives
          them a legitimate reason to review your request and to contact you about it.
        </li>
        <li>
          <strong>Sharing with our partners.</strong> You allow us to pass the information in your request to
          the lenders and marketing partners in our network, listed on our{' '}
          <Link to="/partners">Partners</Link> page, so that they can assess it and contact you about it and
          about related offers.
        </li>
        <li>
          <strong>Access to your credit report.</strong> You give us, those lenders and those partners your
          written instruction under the Fair Credit Reporting Act to obtain your consumer report and related
          information from consumer reporting agencies, to confirm your identity and to decide on your
          request. A soft inquiry does not affect your credit score; a lender may make a hard inquiry if you
          continue with its offer.
        </li>
        <li>
          <strong>Many requests do not qualify.</strong> You understand that many people who submit a request
          are not offered a loan, and that submitting one does not guarantee an offer or approval.
        </li>
        <li>
          <strong>Offers may be for less.</strong> You understand that a lender may offer a smaller amount
          than the one you asked for.
        </li>
        <li>
          <strong>The lender sets the terms.</strong> Only the lender decides the rate, fees, repayment
          schedule and every other term of an offer. {BRAND.name} has no say in them and does not guarantee
          them.
        </li>
        <li>
          <strong>You review every offer.</strong> You agree to read each offer in full before you accept it,
          including its annual percentage rate, fees, payment dates and the lender&apos;s policies on late
          payment, renewal and collection. You are free to turn any offer down.
        </li>
      </ol>
      <p>
        These authorizations work together with our <Link to="/terms-of-use">Terms of Use</Link> and{' '}
        <Link to="/privacy">Privacy Policy</Link>. To stop marketing messages or the sale of your information,
        use our <Link to="/unsubscribe">Unsubscribe</Link> and{' '}
        <Link to="/do-not-sell-information">Do Not Sell My Information</Link> forms.
      </p>
    </ContentPage>
  );
}
