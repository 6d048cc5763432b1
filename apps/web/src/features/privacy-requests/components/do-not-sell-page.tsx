import { US_STATES } from '@funnel/contracts/options';
import { DoNotSellRequestSchema, STATE_RESIDENCY_OPTIONS } from '@funnel/contracts/privacy';
import { ChoiceGroup } from '@/components/form/choice-group';
import { SelectField } from '@/components/form/select-field';
import { TextField } from '@/components/form/text-field';
import { ZipCodeField } from '@/components/form/zip-code-field';
import { ContentPage } from '@/components/layout/content-page';
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
  country: '',
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
  const { formRef, values, errors, busy, outcome, setValue, submit, dismissOutcome } = usePrivacyRequestForm({
    initialValues: INITIAL_VALUES,
    schema: DoNotSellRequestSchema,
    send: mutateAsync,
  });
  const text = (field: Field, label: string, autoComplete: string) => (
    <TextField
      id={field}
      label={label}
      autoComplete={autoComplete}
      value={values[field]}
      onValueChange={(value) => setValue(field, value)}
      error={errors[field]}
    />
  );
  return (
    <ContentPage
      title="Do Not Sell My Personal Information"
      intro={`Residents of California, Nevada, Virginia, Utah and Connecticut have the right under their state's privacy law to stop a business from selling or sharing their personal information. ${BRAND.name} honours this request from anyone who sends it.`}
    >
      <form
        ref={formRef}
        className={styles.form}
        noValidate
        aria-label="Do not sell request"
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <p id="state-residency-question" className={styles.question}>
          Do you live in one of these states?
        </p>
        <ChoiceGroup
          name="stateResidencyPrompt"
          labelledBy="state-residency-question"
          options={STATE_RESIDENCY_OPTIONS}
          value={values.stateResidencyPrompt || undefined}
          onChange={(value) => setValue('stateResidencyPrompt', value)}
          error={errors.stateResidencyPrompt}
          columns={2}
        />
        <div className={`${styles.twoColumns} ${styles.threeColumns}`}>
          {text('firstName', 'First name', 'given-name')}
          <TextField
            id="middleName"
            label="Middle name (optional)"
            autoComplete="additional-name"
            placeholder="Optional"
            value={values.middleName}
            onValueChange={(value) => setValue('middleName', value)}
            error={errors.middleName}
          />
          {text('lastName', 'Last name', 'family-name')}
        </div>
        <ContactFields className={styles.twoColumns} values={values} errors={errors} onChange={setValue} />
        {text('address', 'Street address', 'street-address')}
        <div className={styles.twoColumns}>
          {text('city', 'City', 'address-level2')}
          <SelectField
            id="state"
            label="State"
            placeholder="Select your state"
            autoComplete="address-level1"
            options={US_STATES}
            value={values.state}
            onValueChange={(value) => setValue('state', value)}
            error={errors.state}
          />
          <ZipCodeField
            id="zip"
            value={values.zip}
            onValueChange={(value) => setValue('zip', value)}
            place={undefined}
            error={errors.zip}
          />
          {text('country', 'Country', 'country-name')}
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
