import { useEffect, useState, type RefObject } from 'react';
import { Link, useNavigate } from 'react-router';
import type { LandingPayload } from '@funnel/contracts/landing';
import { ZIP_CODE_NOT_FOUND } from '@funnel/contracts/messages';
import {
  DEFAULT_LOAN_AMOUNT,
  DEFAULT_LOAN_REASON,
  LOAN_AMOUNTS,
  LOAN_REASONS,
  type LoanReason,
} from '@funnel/contracts/loan-options';
import { FormField } from '@/components/form/form-field';
import type { FieldMessages } from '@/components/form/schema-resolver';
import { SelectField } from '@/components/form/select-field';
import { useSchemaForm } from '@/components/form/use-schema-form';
import { ZipCodeField } from '@/components/form/zip-code-field';
import { ConsentCertification, ConsentDisclosure } from '@/components/consent/consent-certification';
import { RatesAndFeesButton } from '@/components/content/rates-and-fees-button';
import { Button } from '@/components/ui/button';
import { readConsentCertificates } from '@/lib/consent-certificates';
import { GENERIC_ERROR } from '@/lib/generic-error';
import { useZipPlace } from '@/lib/get-zip-place';
import { describeError, postClientLog } from '@/lib/post-client-log';
import { useCreateLead } from '../api/create-lead';
import styles from './landing.module.css';

/** The form as its controls hold it: the amount is a select's text until it is parsed. */
interface LandingValues {
  amount: string;
  loanReason: string;
  zipCode: string;
}

interface LandingFormProps {
  /** A loan reason from a deep link that could not pre-fill a lead. */
  initialLoanReason: LoanReason | undefined;
  /** The landing URL's query as the page opened: its attribution parameters go with the new lead. */
  landingSearch: string;
  /** The first control, focused by the page's bottom call-to-action. */
  firstFieldRef: RefObject<HTMLSelectElement | null>;
}

/**
 * Amount, loan reason and ZIP code (spec §2). The ZIP code is looked up as soon as it has five digits and shows
 * its city; on success the BFF creates the lead and names the first step.
 */
export function LandingForm({ initialLoanReason, landingSearch, firstFieldRef }: LandingFormProps) {
  const navigate = useNavigate();
  const { mutateAsync } = useCreateLead();
  const [failure, setFailure] = useState<string>();
  const { form, attachForm, busy, submit } = useSchemaForm<LandingValues>({
    defaultValues: {
      amount: String(DEFAULT_LOAN_AMOUNT),
      loanReason: initialLoanReason ?? DEFAULT_LOAN_REASON,
      zipCode: '',
    },
    // The schema (zod) and the resolver load with the first press of Get Started: the first screen shows and
    // hydrates without them (docs/adr/0019-html-first-borrower-screens.md).
    resolver: async (values, context, options) => {
      const [{ schemaResolver }, { LandingSchema }] = await Promise.all([
        import('@/components/form/schema-resolver'),
        import('@funnel/contracts/landing'),
      ]);
      return schemaResolver<LandingValues, unknown>(LandingSchema, {
        toInput: (landing) => ({ ...landing, amount: Number(landing.amount) }),
        check: (): FieldMessages => (zip.notFound ? { zipCode: ZIP_CODE_NOT_FOUND } : {}),
      })(values, context, options);
    },
    onFailure(error) {
      setFailure(GENERIC_ERROR);
      postClientLog({ pretext: 'Creating a lead failed', text: describeError(error), type: 'error' });
    },
  });
  // A deep link's loan reason arrives after hydration (the prerendered form has the default): chosen then,
  // unless the visitor has already picked one.
  useEffect(() => {
    if (initialLoanReason && !form.getFieldState('loanReason').isDirty)
      form.setValue('loanReason', initialLoanReason);
  }, [initialLoanReason, form]);
  const zip = useZipPlace(form.watch('zipCode'));

  return (
    <form
      ref={attachForm}
      className={styles.form}
      // POST, never GET: answers typed on the page before the app loads must not end up in the address.
      method="post"
      noValidate
      aria-labelledby="landing-form-title"
      onSubmit={(event) => {
        event.preventDefault();
        const element = event.currentTarget;
        setFailure(undefined);
        submit(async (lead) => {
          const { readLandingParams } = await import('../utils/read-landing-params');
          const summary = await mutateAsync({
            ...(lead as LandingPayload),
            tracking: await readConsentCertificates(element),
            landingParams: readLandingParams(landingSearch),
          });
          await navigate(`/${summary.nextStep}`);
        });
      }}
    >
      <h2 id="landing-form-title" className={styles.formTitle}>
        Request your loan
      </h2>
      <FormField
        form={form}
        name="amount"
        render={(field) => (
          <SelectField
            {...field}
            ref={(element) => {
              field.ref(element);
              firstFieldRef.current = element;
            }}
            label="How much do you need?"
            options={LOAN_AMOUNTS}
          />
        )}
      />
      <FormField
        form={form}
        name="loanReason"
        render={(field) => <SelectField {...field} label="What is the loan for?" options={LOAN_REASONS} />}
      />
      <FormField
        form={form}
        name="zipCode"
        render={(field) => <ZipCodeField {...field} place={zip.place} notFound={zip.notFound} />}
      />
      <ConsentCertification />
      {failure && (
        <p className={styles.failure} role="alert">
          {failure}
        </p>
      )}
      <Button type="submit" wide busy={busy} busyLabel="Starting…">
        Get Started
      </Button>
      {/* A div, not a p: the Rates & Fees button brings its <dialog>, which a paragraph cannot hold. */}
      <div className={styles.consent}>
        <ConsentDisclosure>
          By clicking Get Started you agree to our <Link to="/privacy">Privacy Policy</Link>,{' '}
          <Link to="/terms-of-use">Terms of Use</Link>, <RatesAndFeesButton />,{' '}
          <Link to="/partners">Partners</Link> and{' '}
          <Link to="/credit-authorization-agreement">Credit Authorization Agreement</Link>. Our service is
          free.
        </ConsentDisclosure>
      </div>
    </form>
  );
}
