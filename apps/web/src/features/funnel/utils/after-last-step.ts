import type { StepName } from '@funnel/contracts/steps';
import type { Destination } from '../hooks/use-step-form';

/**
 * Where the final button leads. The BFF names the first unanswered step; once every step is answered it names
 * 'ssn', which then means the application is complete and matching starts.
 */
export const afterLastStep: Destination = (nextStep: StepName) =>
  nextStep === 'ssn' ? '/mapping-lender' : `/${nextStep}`;
