import type * as z from 'zod';
import type {
  CreateLeadRequestSchema,
  DeepLinkLeadRequestSchema,
  LeadSummary,
  StepSaved,
} from '@funnel/contracts/api';
import type { SubmitLeadRequest } from '@funnel/contracts/consent';
import type { LeadOutcome, SubmitAccepted } from '@funnel/contracts/lead-outcome';
import type { PartnerLeadAccepted, PartnerLeadRequestPayload } from '@funnel/contracts/partner-api';
import type { StepName } from '@funnel/contracts/steps';
import type { LeadLifecycleDeps, PartnerSource, RequestContext, SubmitContext } from './lead-context.js';
import { LeadDrafts } from './lead-drafts.js';
import { LeadSubmission } from './lead-submission.js';

export {
  LostIdempotencyClaim,
  sessionExpired,
  type LeadLifecycleDeps,
  type PartnerSource,
  type RequestContext,
  type SubmitContext,
} from './lead-context.js';

/**
 * The lead lifecycle owned by the BFF, as its routes call it: drafts (`lead-drafts.ts`: create, save a step,
 * summarise, start over) and submission (`lead-submission.ts`: the funnel's submit, a partner's lead, the
 * outcome). The answers the server derives are in `derive-answers.ts`, the lead events in `lead-events.ts`.
 */
export class LeadLifecycle {
  private readonly drafts: LeadDrafts;
  private readonly submission: LeadSubmission;

  constructor(deps: LeadLifecycleDeps) {
    this.drafts = new LeadDrafts(deps);
    this.submission = new LeadSubmission(deps);
  }

  createFromLanding(
    input: z.output<typeof CreateLeadRequestSchema>,
    context: RequestContext,
  ): Promise<{ id: string; summary: LeadSummary }> {
    return this.drafts.createFromLanding(input, context);
  }

  createFromDeepLink(
    input: z.output<typeof DeepLinkLeadRequestSchema>,
    context: RequestContext,
  ): Promise<{ id: string; summary: LeadSummary }> {
    return this.drafts.createFromDeepLink(input, context);
  }

  summary(leadId: string | undefined): Promise<LeadSummary> {
    return this.drafts.summary(leadId);
  }

  abandon(leadId: string | undefined): Promise<void> {
    return this.drafts.abandon(leadId);
  }

  saveStep(leadId: string | undefined, stepName: StepName, body: unknown): Promise<StepSaved> {
    return this.drafts.saveStep(leadId, stepName, body);
  }

  submit(
    leadId: string | undefined,
    request: SubmitLeadRequest,
    context: SubmitContext,
  ): Promise<SubmitAccepted> {
    return this.submission.submit(leadId, request, context);
  }

  createFromPartner(
    input: PartnerLeadRequestPayload,
    partner: PartnerSource,
    options: Parameters<LeadSubmission['createFromPartner']>[2] = {},
  ): Promise<PartnerLeadAccepted> {
    return this.submission.createFromPartner(input, partner, options);
  }

  /** Completes the evidence of a submitted lead that went without it (a repeat's first step, docs/adr/0026). */
  completeSubmission(leadId: string): Promise<void> {
    return this.submission.completeSubmission(leadId);
  }

  outcomeOf(leadId: string | undefined): Promise<{ id: string; outcome: LeadOutcome | undefined }> {
    return this.submission.outcomeOf(leadId);
  }
}
