import { useEffect, useRef, useState, type RefObject } from 'react';
import { Link, useNavigate } from 'react-router';
import type { LandingParams } from '@funnel/contracts/attribution';
import { fieldErrors } from '@funnel/contracts/errors';
import { ZIP_CODE_NOT_FOUND } from '@funnel/contracts/messages';
import {
  DEFAULT_LOAN_AMOUNT,
  DEFAULT_LOAN_REASON,
  LOAN_AMOUNTS,
  LOAN_REASONS,
  type LoanReason,
} from '@funnel/contracts/options';
import { LandingSchema } from '@funnel/contracts/landing';
import { focusFirstInvalid } from '@/components/form/focus-first-invalid';
import { SelectField } from '@/components/form/select-field';
import { ZipCodeField } from '@/components/form/zip-code-field';
import { ConsentCertification, ConsentDisclosure } from '@/components/consent/consent-certification';
import { RatesAndFeesButton } from '@/components/content/rates-and-fees-button';
import { Button } from '@/components/ui/button';
import { ApiRequestError } from '@/lib/api-request-error';
import { readConsentCertificates } from '@/lib/consent-certificates';
import { GENERIC_ERROR } from '@/lib/generic-error';
import { useZipPlace } from '@/lib/get-zip-place';
import { describeError, postClientLog } from '@/lib/post-client-log';
import { useCreateLead } from '../api/create-lead';
import styles from './landing.module.css';

interface LandingFormProps {
  /** A loan reason from a deep link that could not pre-fill a lead. */
  initialLoanReason: LoanReason | undefined;
  /** The landing URL's attribution parameters, read when the page opened. */
  landingParams: LandingParams | undefined;
  /** The first control, focused by the page's bottom call-to-action. */
  firstFieldRef: RefObject<HTMLSelectElement | null>;
}

/**
 * Amount, loan reason and ZIP code (spec §2). The ZIP code is looked up as soon as it has five digits and shows
 * its city; on success the BFF creates the lead and names the first step.
 */
export function LandingForm({ initialLoanReason, landingParams, firstFieldRef }: LandingFormProps) {
  const navigate = useNavigate();
  const { mutateAsync } = useCreateLead();
  const [amount, setAmount] = useState(String(DEFAULT_LOAN_AMOUNT));
  const [loanReason, setLoanReason] = useState<string>(initialLoanReason ?? DEFAULT_LOAN_REASON);
  const [zipCode, setZipCode] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [failure, setFailure] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [rejections, setRejections] = useState(0);
  const busyRef = useRef(false);
  const formRef = useRef<HTMLFormElement>(null);
  const place = useZipPlace(zipCode);
  const zipNotFound = place.error instanceof ApiRequestError && place.error.status === 404;

  useEffect(() => {
    if (rejections > 0) focusFirstInvalid(formRef.current);
  }, [rejections]);

  function reject(fields: Record<string, string>) {
    setErrors(fields);
    setRejections((count) => count + 1);
  }

  function clearError(field: string) {
    setErrors(({ [field]: _cleared, ...rest }) => rest);
  }

  async function submit(form: HTMLFormElement) {
    if (busyRef.current) return;
    const parsed = LandingSchema.safeParse({ amount: Number(amount), loanReason, zipCode });
    if (!parsed.success) {
      reject(fieldErrors(parsed.error));
      return;
    }
    if (zipNotFound) {
      reject({ zipCode: ZIP_CODE_NOT_FOUND });
      return;
    }
    busyRef.current = true;
    setBusy(true);
    setFailure(undefined);
    try {
      const summary = await mutateAsync({
        ...parsed.data,
        tracking: readConsentCertificates(form),
        landingParams,
      });
      await navigate(`/${summary.nextStep}`);
    } catch (error) {
      if (error instanceof ApiRequestError && Object.keys(error.fields).length > 0) {
        reject({ ...error.fields });
      } else {
        setFailure(GENERIC_ERROR);
        postClientLog({ pretext: 'Creating a lead failed', text: describeError(error), type: 'error' });
      }
    } finally {
      busyRef.current = false;
      setBusy(false);
    }
  }

  return (
    <form
      ref={formRef}
      className={styles.form}
      noValidate
      aria-labelledby="landing-form-title"
      onSubmit={(event) => {
        event.preventDefault();
        void submit(event.currentTarget);
      }}
    >
      <h2 id="landing-form-title" className={styles.formTitle}>
        Request your loan
      </h2>
      <SelectField
        ref={firstFieldRef}
        id="amount"
        label="How much do you need?"
        options={LOAN_AMOUNTS}
        value={amount}
        onValueChange={(value) => {
          setAmount(value);
          clearError('amount');
        }}
        error={errors.amount}
      />
      <SelectField
        id="loanReason"
        label="What is the loan for?"
        options={LOAN_REASONS}
        value={loanReason}
        onValueChange={(value) => {
          setLoanReason(value);
          clearError('loanReason');
        }}
        error={errors.loanReason}
      />
      <ZipCodeField
        id="zipCode"
        value={zipCode}
        onValueChange={(value) => {
          setZipCode(value);
          clearError('zipCode');
        }}
        place={place.data}
        error={errors.zipCode ?? (zipNotFound ? ZIP_CODE_NOT_FOUND : undefined)}
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
      <p className={styles.consent}>
        <ConsentDisclosure>
          By clicking Get Started you agree to our <Link to="/privacy">Privacy Policy</Link>,{' '}
          <Link to="/terms-of-use">Terms of Use</Link>, <RatesAndFeesButton />,{' '}
          <Link to="/partners">Partners</Link> and{' '}
          <Link to="/credit-authorization-agreement">Credit Authorization Agreement</Link>. Our service is
          free.
        </ConsentDisclosure>
      </p>
    </form>
  );
}
