import { useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import { SUBMIT_BUTTONS } from '@funnel/contracts/consent';
import { FormError } from '@/components/form/form-error';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import { isSessionExpired, useExpireSession } from '@/hooks/use-expire-session';
import { GENERIC_ERROR } from '@/lib/generic-error';
import { describeError, postClientLog } from '@/lib/post-client-log';
import { ConsentText } from '../components/consent-text';
import { useSubmitApplication } from '../hooks/use-submit-application';
import styles from './request-cash-screen.module.css';

/**
 * For a visitor whose answers are all on file: the consent, and the button that submits the application and
 * opens the waiting screen (no step is saved here). A press while the submission is under way is ignored.
 */
export default function RequestCashScreen() {
  const navigate = useNavigate();
  const expireSession = useExpireSession();
  const submit = useSubmitApplication('REQUEST_CASH');
  const [busy, setBusy] = useState(false);
  const [failure, setFailure] = useState<string>();
  // The state drives rendering; the ref closes the gap between a press and the re-render it causes.
  const busyRef = useRef(false);

  async function requestCash() {
    if (busyRef.current) return;
    busyRef.current = true;
    setBusy(true);
    setFailure(undefined);
    try {
      await navigate(await submit());
    } catch (error) {
      if (isSessionExpired(error)) {
        expireSession();
        return;
      }
      setFailure(GENERIC_ERROR);
      postClientLog({
        pretext: 'Submitting the application failed',
        text: describeError(error),
        type: 'error',
      });
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  return (
    <section aria-labelledby="requestcash-heading">
      <PageHeading id="requestcash-heading" className={styles.heading}>
        Your request is ready
      </PageHeading>
      <p>We have all the answers we need. Send your request to lenders in our network now.</p>
      <FormError message={failure} />
      <Button wide busy={busy} busyLabel="Sending your request…" onClick={() => void requestCash()}>
        {SUBMIT_BUTTONS.REQUEST_CASH}
      </Button>
      <ConsentText button="REQUEST_CASH" />
    </section>
  );
}
