import { useCallback } from 'react';
import { useLocation } from 'react-router';
import type { SubmitButton } from '@funnel/contracts/consent';
import { StepNameSchema } from '@funnel/contracts/steps';
import { ApiRequestError } from '@/lib/api-request-error';
import { readConsentCertificates } from '@/lib/consent-certificates';
import { useSubmitLead } from '../api/submit-lead';
import type { Destination } from './use-step-form';

/** The waiting screen, where the visitor follows the lenders' answer. */
export const MATCHING_ROUTE = '/mapping-lender';

/**
 * The final button: submits the application with the consent `button` gives and answers where the visitor goes
 * next — the waiting screen, or the step the BFF names when an answer is still missing. Other failures are thrown
 * for the screen to show. Callers keep a second press from submitting again (the BFF would answer the same).
 * The consent certificates are read from the screen's hidden inputs (`ConsentText`) at the press.
 */
export function useSubmitApplication(button: SubmitButton): () => Promise<string> {
  const { mutateAsync } = useSubmitLead();
  const { pathname } = useLocation();
  return useCallback(async () => {
    try {
      await mutateAsync({ button, pagePath: pathname, ...(await readConsentCertificates()) });
      return MATCHING_ROUTE;
    } catch (error) {
      const missing = error instanceof ApiRequestError && error.code === 'INCOMPLETE_LEAD';
      const step = missing ? StepNameSchema.safeParse(error.fields.step) : undefined;
      if (step?.success) return `/${step.data}`;
      throw error;
    }
  }, [mutateAsync, button, pathname]);
}

/**
 * Where the last step's button leads once its answer is saved: the BFF names the first unanswered step, or 'ssn'
 * once every step is answered, which means the application is complete and is submitted now.
 */
export function afterLastStep(submit: () => Promise<string>): Destination {
  return (nextStep) => (nextStep === 'ssn' ? submit() : `/${nextStep}`);
}
