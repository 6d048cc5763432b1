import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { ConsentText } from '../components/consent-text';
import styles from './request-cash-screen.module.css';

const REQUEST_CASH = 'Request Cash';

/** For a visitor whose answers are all on file: the consent, and the button that starts matching (no save). */
export default function RequestCashScreen() {
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  return (
    <section aria-labelledby="requestcash-heading">
      <PageHeading id="requestcash-heading" className={styles.heading}>
        Your request is ready
      </PageHeading>
      <p>We have all the answers we need. Send your request to lenders in our network now.</p>
      <Button
        wide
        busy={busy}
        busyLabel="Sending your request…"
        onClick={() => {
          setBusy(true);
          void navigate('/mapping-lender');
        }}
      >
        {REQUEST_CASH}
      </Button>
      <ConsentText buttonLabel={REQUEST_CASH} />
    </section>
  );
}
