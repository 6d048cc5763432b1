import { Link } from 'react-router';
import { ContentPage } from '@/components/layout/content-page';
import { PageLoader } from '@/components/ui/page-loader';
import { BRAND } from '@/config/brand';
import { useBrandLinks } from '@/lib/brand-links';
import { PrivacyEmail } from './privacy-email';
import styles from './contact-us-page.module.css';

/**
 * /contact-us: how to reach the business, from the deployment's `BRAND_*` settings. A development copy without
 * them shows sample details and says so plainly (issue 25), so nobody takes them for real ones.
 */
export default function ContactUsPage() {
  const contact = useBrandLinks()?.contact;
  return (
    <ContentPage
      title="Contact Us"
      intro="Questions about your request or about our service? We are happy to help."
    >
      {!contact ? (
        <PageLoader message="Loading our contact details…" />
      ) : (
        <>
          {contact.sample && (
            <p className={styles.sample} role="note">
              <strong>These are sample contact details.</strong> This copy of the site runs without its
              operator&apos;s contact settings, so the address, email and phone number below are placeholders
              that reach nobody.
            </p>
          )}
          <div className={styles.cards}>
            <section className={styles.card} aria-labelledby="contact-email">
              <h2 id="contact-email" className={styles.cardTitle}>
                Email
              </h2>
              <p>
                <a href={`mailto:${contact.email}`}>{contact.email}</a>
              </p>
              <p className={styles.note}>Write to us at any time.</p>
            </section>
            <section className={styles.card} aria-labelledby="contact-phone">
              <h2 id="contact-phone" className={styles.cardTitle}>
                Phone
              </h2>
              <p>
                <a href={`tel:${contact.phoneE164}`}>{contact.phone}</a>
              </p>
              <p className={styles.note}>{contact.hours}</p>
            </section>
            <section className={styles.card} aria-labelledby="contact-mail">
              <h2 id="contact-mail" className={styles.cardTitle}>
                Mail
              </h2>
              <address className={styles.address}>
                {contact.mailingAddress.map((line) => (
                  <span key={line}>{line}</span>
                ))}
              </address>
            </section>
          </div>
        </>
      )}
      <h2>Your privacy choices</h2>
      <p>
        To stop marketing emails, texts and calls, use our <Link to="/unsubscribe">Unsubscribe</Link> form. To
        stop us selling or sharing your personal information, use the{' '}
        <Link to="/do-not-sell-information">Do Not Sell My Information</Link> form. For any other question
        about your personal information, write to <PrivacyEmail />.
      </p>
      <h2>Questions about a loan offer</h2>
      <p>
        {BRAND.name} is not a lender. Questions about an offer, a loan agreement, a payment or a collection go
        to the lender who made the offer: its contact details are in your loan documents.
      </p>
    </ContentPage>
  );
}
