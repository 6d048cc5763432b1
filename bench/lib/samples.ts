import type { Landing, StepInput } from '@funnel/contracts/steps';

/** The landing form a benchmark visitor sends. */
export const LANDING_SAMPLE: Landing = { amount: 500, loanReason: 'DEBT_CONSOLIDATION', zipCode: '10001' };

/** The name step's body, saved over and over by the step-save benchmark. */
export const NAME_STEP_SAMPLE: StepInput<'lgname'> = { firstName: 'Maria', lastName: 'Garcia' };
