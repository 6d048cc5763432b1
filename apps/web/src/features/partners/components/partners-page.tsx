import { Link } from 'react-router';
import { ContentPage } from '@/components/layout/content-page';
import { Button } from '@/components/ui/button';
import { Spinner } from '@/components/ui/spinner';
import { BRAND } from '@/config/brand';
import { usePartners } from '../api/get-partners';
import { DataAttributions } from './data-attributions';
import styles from './partners-page.module.css';

/** /partners: the companies that may receive a visitor's request (spec §2 "Partners page"), and data credits. */
export default function PartnersPage() {
  const partners = usePartners();
  return (
    <ContentPage
      title="Our Partners"
      intro={`When you submit a request, ${BRAND.name} may share it with the lenders and marketing partners below, who may contact you about it and about related offers.`}
    >
      <h2 id="partner-list-title">Lenders and marketing partners</h2>
      {partners.isPending && (
        <p className={styles.status} role="status">
          <Spinner /> Loading our partners…
        </p>
      )}
      {partners.isError && (
        <div className={styles.failure} role="alert">
          <p>We could not load the list of partners. Please try again.</p>
          <Button variant="secondary" onClick={() => void partners.refetch()}>
            Try again
          </Button>
        </div>
      )}
      {partners.isSuccess && (
        <ul className={styles.list} aria-labelledby="partner-list-title">
          {partners.data.partners.map((name) => (
            <li key={name} className={styles.partner}>
              {name}
            </li>
          ))}
        </ul>
      )}
      <p>
        The list changes as companies join or leave our network. To stop us selling or sharing your
        information with these companies, use our{' '}
        <Link to="/do-not-sell-information">Do Not Sell My Information</Link> form; to stop their marketing
        messages, use our <Link to="/unsubscribe">Unsubscribe</Link> form.
      </p>
      <DataAttributions />
    </ContentPage>
  );
}
