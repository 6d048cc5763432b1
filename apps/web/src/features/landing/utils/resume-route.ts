import type { LeadSummary } from '@funnel/contracts/api';

/**
 * Where 'Continue your application' goes (docs/product-rules.md §returning-visitors-and-sessions): the BFF's next step, except that the pay-date step is
 * /nextpaydatesort, the same screen greeting the visitor by first name, and an application with every answer
 * (the SSN included) waits on /requestcash, the consent screen that submits it.
 */
export function resumeRoute(lead: Pick<LeadSummary, 'nextStep' | 'masked'>): string {
  if (lead.nextStep === 'ssn' && lead.masked.socialSecurityNumber !== undefined) return '/requestcash';
  if (lead.nextStep === 'nextpaydate') return '/nextpaydatesort';
  return `/${lead.nextStep}`;
}

/** An application the visitor can continue: read, and not yet submitted (no outcome). */
export function isUnfinished(lead: Pick<LeadSummary, 'outcome'> | undefined): boolean {
  return lead !== undefined && lead.outcome === undefined;
}
