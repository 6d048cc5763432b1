import { UNSUBSCRIBE_REASONS } from '@funnel/contracts/options';
import { UnsubscribeRequestSchema } from '@funnel/contracts/privacy';
import { FormField } from '@/components/form/form-field';
import { SelectField } from '@/components/form/select-field';
import { ContentPage } from '@/components/layout/content-page';
import { Button } from '@/components/ui/button';
import { BRAND } from '@/config/brand';
import { useSubmitUnsubscribe } from '../api/submit-unsubscribe';
import { usePrivacyRequestForm } from '../hooks/use-privacy-request-form';
import { ContactFields } from './contact-fields';
import { RequestOutcomeDialog } from './request-outcome-dialog';
import styles from './privacy-request-form.module.css';

/** /unsubscribe: stop marketing email, texts and calls to an email address and phone number (spec §2). */
export default function UnsubscribePage() {
  const { mutateAsync } = useSubmitUnsubscribe();
  const { form, attachForm, busy, outcome, onSubmit, dismissOutcome } = usePrivacyRequestForm({
    initialValues: { email: '', phone: '', reason: '' },
    schema: UnsubscribeRequestSchema,
    send: mutateAsync,
  });
  return (
    <ContentPage
      title="Unsubscribe"
      intro={`Stop marketing emails, text messages and calls from ${BRAND.name} and the partners in our network. Enter the email address and phone number the messages reach you at.`}
    >
      <form
        ref={attachForm}
        className={styles.form}
        // POST, never GET: answers typed on the page before the app loads must not end up in the address.
        method="post"
        noValidate
        aria-label="Unsubscribe request"
        onSubmit={onSubmit}
      >
        <ContactFields className={styles.twoColumns} form={form} />
        <FormField
          form={form}
          name="reason"
          render={(field) => (
            <SelectField
              {...field}
              label="Why do you want to unsubscribe?"
              placeholder="Select a reason"
              options={UNSUBSCRIBE_REASONS}
            />
          )}
        />
        <div className={styles.notes}>
          <p>
            Please allow up to 48 hours for your opt-out to take full effect; you may receive a message that
            was already on its way during that time.
          </p>
          <p>
            Messages about a loan you have already taken out come from your lender: ask the lender directly to
            stop them.
          </p>
        </div>
        <Button type="submit" busy={busy} busyLabel="Sending…">
          Unsubscribe
        </Button>
      </form>
      <RequestOutcomeDialog outcome={outcome} onClose={dismissOutcome} />
    </ContentPage>
  );
}
