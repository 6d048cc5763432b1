import { US_STATES } from '@funnel/contracts/options';
import { DoNotSellRequestSchema, STATE_RESIDENCY_OPTIONS } from '@funnel/contracts/privacy';
import { ChoiceGroup } from '@/components/form/choice-group';
import { FormField } from '@/components/form/form-field';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { ZipCodeField } from '@/components/form/zip-code-field';
import { ContentPage } from '@/components/layout/content-page';
import { PrivacySignalNotice } from '@/components/layout/privacy-signal-notice';
import { Button } from '@/components/ui/button';
import { BRAND } from '@/config/brand';
import { useSubmitDoNotSell } from '../api/submit-do-not-sell';
import { usePrivacyRequestForm } from '../hooks/use-privacy-request-form';
import { ContactFields } from './contact-fields';
import { RequestOutcomeDialog } from './request-outcome-dialog';
import styles from './privacy-request-form.module.css';

const INITIAL_VALUES = {
  stateResidencyPrompt: '',
  firstName: '',
  middleName: '',
  lastName: '',
  email: '',
  phone: '',
  zip: '',
  state: '',
  address: '',
  city: '',
};

type Field = keyof typeof INITIAL_VALUES;

/**
 * /do-not-sell-information: ask us not to sell or share personal information (spec §2). The state laws behind it
 * cover California, Nevada, Virginia, Utah and Connecticut; we honour the request from anyone.
 */
export default function DoNotSellPage() {
  const { mutateAsync } = useSubmitDoNotSell();
  const { form, attachForm, busy, outcome, onSubmit, dismissOutcome } = usePrivacyRequestForm({
    initialValues: INITIAL_VALUES,
    schema: DoNotSellRequestSchema,
    send: mutateAsync,
  });
  const text = (name: Field, label: string, autoComplete: string) => (
    <FormField
      form={form}
      name={name}
      render={(field) => <TextField {...field} label={label} autoComplete={autoComplete} />}
    />
  );
  return (
    <ContentPage
      title="Do Not Sell My Personal Information"
      intro={`Residents of California, Nevada, Virginia, Utah and Connecticut have the right under their state's privacy law to stop a business from selling or sharing their personal information. ${BRAND.name} honours this request from anyone who sends it.`}
    >
      <PrivacySignalNotice className={styles.signal} />
      <form
        ref={attachForm}
        className={styles.form}
        // POST, never GET: answers typed on the page before the app loads must not end up in the address.
        method="post"
        noValidate
        aria-label="Do not sell request"
        onSubmit={onSubmit}
      >
        <p id="state-residency-question" className={styles.question}>
          Do you live in one of these states?
        </p>
        <FormField
          form={form}
          name="stateResidencyPrompt"
          render={(field) => (
            <ChoiceGroup
              name="stateResidencyPrompt"
              labelledBy="state-residency-question"
              options={STATE_RESIDENCY_OPTIONS}
              value={field.value || undefined}
              onChange={field.onValueChange}
              error={field.error}
              columns={2}
            />
          )}
        />
        <div className={`${styles.twoColumns} ${styles.threeColumns}`}>
          {text('firstName', 'First name', 'given-name')}
          <FormField
            form={form}
            name="middleName"
            render={(field) => (
              <TextField
                {...field}
                label="Middle name (optional)"
                autoComplete="additional-name"
                placeholder="Optional"
              />
            )}
          />
          {text('lastName', 'Last name', 'family-name')}
        </div>
        <ContactFields className={styles.twoColumns} form={form} />
        {text('address', 'Street address', 'street-address')}
        <div className={styles.twoColumns}>
          {text('city', 'City', 'address-level2')}
          <FormField
            form={form}
            name="state"
            render={(field) => (
              <SelectField
                {...field}
                label="State"
                placeholder="Select your state"
                autoComplete="address-level1"
                options={US_STATES}
              />
            )}
          />
          <FormField
            form={form}
            name="zip"
            render={(field) => <ZipCodeField {...field} place={undefined} />}
          />
        </div>
        <div className={styles.notes}>
          <p>
            From the moment we receive your request, we stop selling or sharing your information with
            marketing partners, and we stop sending their offers to your email address and phone number.
          </p>
          <p>
            About calls: even if your number is on the National Do Not Call Registry, a company you bought
            from may call you for up to 18 months after the purchase, and a company you made an inquiry with
            may call you for up to 3 months after the inquiry, unless you ask that company to stop.
          </p>
        </div>
        <Button type="submit" busy={busy} busyLabel="Sending…">
          Submit request
        </Button>
      </form>
      <RequestOutcomeDialog outcome={outcome} onClose={dismissOutcome} />
    </ContentPage>
  );
}
