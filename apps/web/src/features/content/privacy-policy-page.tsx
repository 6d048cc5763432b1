import { Link } from 'react-router';
import { ContentPage } from '@/components/layout/content-page';
import { BRAND } from '@/config/brand';
import { PrivacyEmail } from './privacy-email';

/** docs/product-rules.md §site-content: the policy keeps the date it was given. */
const LAST_UPDATED = '09-22-2023';

/** /privacy: what we collect, why, with whom we share it, and the choices and rights a visitor has. */
export default function PrivacyPolicyPage() {
  const { name, legalName } = BRAND;
  return (
    <ContentPage
      title="Privacy Policy"
      lastUpdated={LAST_UPDATED}
      intro={`This policy explains what personal information ${legalName} ("${name}") collects through this website, how we use and share it, and the choices you have.`}
    >
      <h2>Information we collect</h2>
      <h3>What you give us</h3>
      <p>When you submit a loan request, we collect the details you type in, which can include:</p>
      <ul>
        <li>your name, email address, phone number, home address and date of birth;</li>
        <li>your employment, income, pay dates and housing situation;</li>
        <li>your bank&apos;s routing number, your account number and account type;</li>
        <li>your Social Security number and driver&apos;s license or state ID number;</li>
        <li>the amount you want to borrow, why, and how you rate your credit.</li>
      </ul>
      <h3>What we collect automatically</h3>
      <p>
        When you visit, we record technical information such as your IP address, browser and device type, the
        pages you view, the site that sent you and any campaign codes in the link you followed. When you
        submit a request, we also keep evidence of your consent: the consent wording you saw, the time, your
        IP address and browser, and, where used, a consent certificate from a third-party verification
        service.
      </p>
      <h3>Cookies</h3>
      <p>
        We use one essential cookie to keep your request together while you fill it in. It holds a random
        identifier, never your details. We do not keep copies of your answers in your browser&apos;s storage
        or in web addresses.
      </p>

      <h2>How we use your information</h2>
      <ul>
        <li>to pass your request to lenders and partners who may make you an offer;</li>
        <li>to confirm your identity and protect you and lenders against fraud;</li>
        <li>to contact you about your request and, with your consent, about related offers;</li>
        <li>to run, secure and improve our site and service;</li>
        <li>to meet our legal obligations and enforce our terms.</li>
      </ul>

      <h2>How we share your information</h2>
      <p>We share your information only as follows:</p>
      <ul>
        <li>
          <strong>Lenders and marketing partners</strong> in our network, listed on our{' '}
          <Link to="/partners">Partners</Link> page, so they can review your request and contact you. They use
          it under their own privacy policies.
        </li>
        <li>
          <strong>Service providers</strong> who host, secure and support our service for us, under contracts
          that limit their use of it to that work.
        </li>
        <li>
          <strong>Authorities and others</strong> when the law requires it, to protect rights and safety, or
          as part of a sale or merger of our business.
        </li>
      </ul>
      <p>
        Passing your request to lenders and marketing partners, who pay us for it, may count as a
        &quot;sale&quot; or &quot;sharing&quot; of personal information under some state laws. You can stop it
        at any time (see below).
      </p>

      <h2>Your choices</h2>
      <ul>
        <li>
          <strong>Marketing messages:</strong> use our <Link to="/unsubscribe">Unsubscribe</Link> form, or
          reply STOP to any text message. An opt-out takes effect within 48 hours.
        </li>
        <li>
          <strong>Selling or sharing:</strong> use our{' '}
          <Link to="/do-not-sell-information">Do Not Sell My Information</Link> form. We honour it whichever
          state you live in.
        </li>
        <li>
          <strong>Global Privacy Control:</strong> if your browser sends the Global Privacy Control signal, we
          treat it as a request not to sell or share the information you give us through that browser.
        </li>
      </ul>

      <h2>Your state privacy rights</h2>
      <p>
        Depending on where you live, including California, Nevada, Virginia, Utah and Connecticut, the law may
        give you the right to:
      </p>
      <ul>
        <li>know what personal information we hold about you and how we use and share it;</li>
        <li>get a copy of it;</li>
        <li>have it corrected or deleted;</li>
        <li>opt out of its sale, its sharing for targeted advertising, and certain profiling.</li>
      </ul>
      <p>
        To use these rights, send the <Link to="/do-not-sell-information">Do Not Sell My Information</Link>{' '}
        form or write to <PrivacyEmail />. We will confirm your identity before acting on a request to see,
        correct or delete information, and we will not treat you differently for using your rights. Where the
        law allows, an authorized agent may act for you, and you may appeal a decision we make about your
        request by writing to the same address.
      </p>

      <h2>Keeping your information safe</h2>
      <p>
        Your information travels over encrypted connections. We encrypt the most sensitive details, such as
        your Social Security, bank account and license numbers and your date of birth, when we store them,
        limit who can see them, and delete them once your request has been dealt with and a short retention
        period has passed. No system is perfectly secure, so please keep your own devices and email safe as
        well.
      </p>

      <h2>Children</h2>
      <p>
        Our service is for adults. We do not knowingly collect information from anyone under 18 and delete it
        if we learn that we have.
      </p>

      <h2>Changes to this policy</h2>
      <p>
        When we change this policy we update the date at the top of this page. Significant changes will be
        highlighted on the site.
      </p>

      <h2>Contact</h2>
      <p>
        Questions about this policy or your information? Write to <PrivacyEmail /> or see our{' '}
        <Link to="/contact-us">Contact Us</Link> page.
      </p>
    </ContentPage>
  );
}
