import { Link } from 'react-router';
import { ContentPage } from '@/components/layout/content-page';
import { BRAND } from '@/config/brand';

/** /terms-of-use: the rules for using the site and the referral service. */
export default function TermsOfUsePage() {
  const { name, legalName, governingLaw } = BRAND;
  return (
    <ContentPage
      title="Terms of Use"
      intro={`These terms govern your use of the ${name} website and service. By using the site or submitting a request, you accept them.`}
    >
      <h2>1. Who we are and what we do</h2>
      <p>
        The site is operated by {legalName} (&quot;{name}&quot;, &quot;we&quot;, &quot;us&quot;). We run a
        free loan-request service: we collect the information you choose to give us and pass it to lenders and
        partners in our network, who may make you an offer. We are not a lender, we do not make credit
        decisions, and we are not your agent or a lender&apos;s agent.
      </p>

      <h2>2. Who may use the service</h2>
      <p>
        You may submit a request only if you are at least 18 years old, a legal resident of the United States,
        and submitting it for yourself. Lenders set their own further requirements, such as a regular income
        or an account in your name.
      </p>

      <h2>3. The information you give us</h2>
      <p>
        You promise that everything you submit is true, complete and your own, and that you will not use
        anyone else&apos;s identity, email address, phone number or bank account. How we collect, use and
        share your information is explained in our <Link to="/privacy">Privacy Policy</Link>; what you
        authorize when you submit a request is set out in our{' '}
        <Link to="/credit-authorization-agreement">Credit Authorization Agreement</Link>.
      </p>

      <h2>4. Consent to be contacted</h2>
      <p>
        By submitting a request you agree that {name}, the lenders and the marketing partners in our network
        may contact you at the email address and phone number you gave, including by text message and by
        autodialed or prerecorded calls, about your request and related offers. This consent is not a
        condition of any loan. Reply STOP to any text message to stop texts, and use our{' '}
        <Link to="/unsubscribe">Unsubscribe</Link> form to stop marketing by email, text and phone. Message
        and data rates may apply.
      </p>

      <h2>5. Electronic signature and records</h2>
      <p>
        Pressing Request Funds or Request Cash is your electronic signature, with the same effect as signing
        on paper. You agree to receive agreements, disclosures and notices electronically, and you can keep a
        copy by printing or saving them.
      </p>

      <h2>6. Lenders and offers</h2>
      <p>
        Lenders decide independently whether to make you an offer and on what terms. We do not guarantee that
        you will be offered a loan, the amount, the rate or the speed of funding, and we are not a party to
        any agreement you sign with a lender. Read every offer carefully; you are never obliged to accept one.
      </p>

      <h2>7. Fees</h2>
      <p>
        Our service is free for you. Lenders and partners pay us for the requests they receive. Any interest
        or fee for a loan is charged by the lender and disclosed by it.
      </p>

      <h2>8. Acceptable use</h2>
      <p>You agree not to:</p>
      <ul>
        <li>submit false, misleading or someone else&apos;s information;</li>
        <li>use robots, scrapers or other automated means to access the site or to submit requests;</li>
        <li>interfere with the site&apos;s security or operation, or try to reach data that is not yours;</li>
        <li>use the site for any unlawful purpose.</li>
      </ul>

      <h2>9. Our content</h2>
      <p>
        The site&apos;s text, design, logos and software belong to {legalName} or its licensors. You may view
        and print pages for your own, non-commercial use; anything else needs our written permission.
      </p>

      <h2>10. Other websites</h2>
      <p>
        Links to lenders, partners and other sites are provided for your convenience. Their terms and privacy
        policies apply there, and we are not responsible for their content, products or practices.
      </p>

      <h2>11. No warranties</h2>
      <p>
        The site and service are provided &quot;as is&quot; and &quot;as available&quot;. To the extent the
        law allows, we make no warranty that they will be uninterrupted, error-free or suited to a particular
        purpose.
      </p>

      <h2>12. Limits on our liability</h2>
      <p>
        To the extent the law allows, {legalName} is not liable for indirect, incidental or consequential loss
        arising from your use of the site, or for any act or omission of a lender or partner. Nothing in these
        terms limits a liability that cannot be limited by law.
      </p>

      <h2>13. Indemnity</h2>
      <p>
        You agree to compensate us for claims and costs that arise because you broke these terms or submitted
        information that was false or not yours.
      </p>

      <h2>14. Governing law</h2>
      <p>
        These terms are governed by the laws of {governingLaw} and applicable federal law, without regard to
        conflict-of-law rules. Nothing in them takes away rights your own state&apos;s consumer-protection
        laws give you.
      </p>

      <h2>15. Changes</h2>
      <p>
        We may update these terms. The version on this page when you submit a request is the one that applies
        to it.
      </p>

      <h2>16. Contact</h2>
      <p>
        Questions about these terms? <Link to="/contact-us">Contact us</Link>.
      </p>
    </ContentPage>
  );
}
