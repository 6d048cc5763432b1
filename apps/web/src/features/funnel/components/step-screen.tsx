import type { KeyboardEvent, ReactNode } from 'react';
import { Link } from 'react-router';
import { getStep, previousStep, type StepName } from '@funnel/contracts/steps';
import { FormError } from '@/components/form/form-error';
import { Button } from '@/components/ui/button';
import { PageHeading } from '@/components/ui/page-heading';
import type { StepForm } from '../hooks/use-step-form';
import styles from './step-screen.module.css';

/** The id of a step's h1, which also names the step's radio group or date grid. */
export function stepHeadingId(step: StepName): string {
  return `${step}-heading`;
}

interface StepScreenProps {
  step: StepName;
  form: Pick<StepForm<never>, 'busy' | 'formError' | 'attachForm' | 'leadLoaded'>;
  onSubmit: () => void;
  children: ReactNode;
  /** Shown above the question (a greeting). */
  before?: ReactNode;
  submitLabel?: string;
  busyLabel?: string;
  /** Shown under the button (consent text). */
  after?: ReactNode;
}

/**
 * Enter submits from radio cards and selects too (spec: keyboard use), not only from text inputs where browsers
 * already do it. A control that uses Enter itself (a suggestion list) prevents the default first; buttons keep
 * their own Enter.
 */
function submitOnEnter(event: KeyboardEvent<HTMLFormElement>) {
  const target = event.target as HTMLElement;
  if (event.key !== 'Enter' || event.defaultPrevented) return;
  if (
    target instanceof HTMLSelectElement ||
    (target instanceof HTMLInputElement && target.type === 'radio')
  ) {
    event.preventDefault();
    event.currentTarget.requestSubmit();
  }
}

/**
 * The frame of every step: back link, the question as the page's h1, the form with its fields and the Next
 * button, and the form-level error.
 */
export function StepScreen({
  step,
  form: { busy, formError, attachForm, leadLoaded },
  onSubmit,
  children,
  before,
  submitLabel = 'Next',
  busyLabel,
  after,
}: StepScreenProps) {
  const back = previousStep(step);

  return (
    <section className={styles.screen} aria-labelledby={stepHeadingId(step)}>
      <Link to={back ? `/${back}` : '/start'} className={styles.back}>
        <svg viewBox="0 0 20 20" width="18" height="18" aria-hidden="true">
          <path
            d="M12.5 4.5L7 10l5.5 5.5"
            fill="none"
            stroke="currentColor"
            strokeWidth="2.2"
            strokeLinecap="round"
          />
        </svg>
        Back
      </Link>
      {before}
      <PageHeading id={stepHeadingId(step)} className={styles.heading}>
        {getStep(step).title}
      </PageHeading>
      <form
        ref={attachForm}
        // POST, never GET: answers typed on the page before the app loads must not end up in the address.
        method="post"
        // Busy until the saved answers are in the fields (the page is drawn before the lead arrives, ADR 0019).
        aria-busy={leadLoaded ? undefined : true}
        noValidate
        onKeyDown={submitOnEnter}
        onSubmit={(event) => {
          event.preventDefault();
          onSubmit();
        }}
      >
        {children}
        <FormError message={formError} />
        <Button type="submit" wide busy={busy} busyLabel={busyLabel}>
          {submitLabel}
        </Button>
        {after}
      </form>
    </section>
  );
}
