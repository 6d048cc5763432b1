import type * as z from 'zod';
import type {
  CreateLeadRequestSchema,
  DeepLinkLeadRequestSchema,
  LeadSummary,
  StepSaved,
} from '@funnel/contracts/api';
import { resolveTracking, type LandingParams } from '@funnel/contracts/attribution';
import { fieldErrors } from '@funnel/contracts/errors';
import {
  CLIENT_TO_SERVER,
  SENSITIVE_CLIENT_FIELDS,
  toClientFields,
  toServerFields,
  type SensitiveClientField,
} from '@funnel/contracts/fields';
import { ZIP_CODE_NOT_FOUND } from '@funnel/contracts/messages';
import {
  firstMissingStep,
  getStep,
  nextStepFor,
  progressFor,
  stepIndex,
  validateStepAgainstLead,
  type StepName,
} from '@funnel/contracts/steps';
import type { Tracking } from '@funnel/contracts/tracking';
import type { LeadRecord } from '@funnel/lead-store/lead-store';
import { HttpError } from '../http-error.js';
import { deriveAnswers, placeAnswers } from './derive-answers.js';
import {
  loadLead,
  sessionExpired,
  type ClientLead,
  type LeadLifecycleDeps,
  type RequestContext,
} from './lead-context.js';
import { createdEvent, stepCompletedEvent } from './lead-events.js';
import { maskSensitive } from './mask.js';

/**
 * A visitor's draft lead: created from the landing form or a deep link, saved one step at a time, summarised
 * back to its visitor, and erased on 'start over'.
 */
export class LeadDrafts {
  constructor(
    private readonly deps: Pick<
      LeadLifecycleDeps,
      'store' | 'zips' | 'routing' | 'today' | 'now' | 'followUps' | 'events'
    >,
  ) {}

  async createFromLanding(
    input: z.output<typeof CreateLeadRequestSchema>,
    context: RequestContext,
  ): Promise<{ id: string; summary: LeadSummary }> {
    const place = this.deps.zips.lookup(input.zipCode);
    if (!place) throw HttpError.validation({ zipCode: ZIP_CODE_NOT_FOUND });
    const answers: ClientLead = {
      amount: input.amount,
      loanReason: input.loanReason,
      zipCode: input.zipCode,
      ...placeAnswers(place),
      ...(input.email ? { email: input.email } : {}),
    };
    return this.create(answers, trackingOf(input, context), context);
  }

  async createFromDeepLink(
    input: z.output<typeof DeepLinkLeadRequestSchema>,
    context: RequestContext,
  ): Promise<{ id: string; summary: LeadSummary }> {
    return this.create(
      { email: input.email, loanReason: input.loanReason },
      trackingOf(input, context),
      context,
    );
  }

  async summary(leadId: string | undefined): Promise<LeadSummary> {
    return summarize(await loadLead(this.deps.store, leadId));
  }

  /**
   * 'Start over' (docs/product-rules.md §returning-visitors-and-sessions): the visitor's unfinished draft is erased from the store. A submitted lead is
   * never touched (its outcome and consent evidence stay), and without a live session there is nothing to do.
   */
  async abandon(leadId: string | undefined): Promise<void> {
    if (!leadId) return;
    // The submission state alone: nothing sealed is opened to decide.
    const progress = await this.deps.store.getProgress(leadId);
    if (!progress || progress.submission) return;
    await this.deps.store.delete(leadId);
  }

  async saveStep(leadId: string | undefined, stepName: StepName, body: unknown): Promise<StepSaved> {
    const record = await loadLead(this.deps.store, leadId, OPENED_ON_SAVE);
    if (record.submission)
      throw new HttpError(409, 'CONFLICT', 'This application has already been submitted.');
    const current = toClientFields(record.fields) as ClientLead;
    // Steps are answered in wizard order: going Back and saving an answered step again is fine, skipping ahead of
    // the first unanswered step is not (it would count as completed a step the lead never reached, issue 33).
    const firstUnanswered = firstMissingStep(current);
    if (firstUnanswered !== undefined && stepIndex(stepName) > stepIndex(firstUnanswered)) {
      throw HttpError.stepOutOfOrder(firstUnanswered);
    }
    const step = getStep(stepName);
    const parsed = step.schema.safeParse(body);
    if (!parsed.success) throw HttpError.validation(fieldErrors(parsed.error));
    const values: ClientLead = { ...(parsed.data as ClientLead) };

    const crossField = validateStepAgainstLead(stepName, values, current, this.deps.today());
    if (Object.keys(crossField).length > 0) throw HttpError.validation(crossField);

    await deriveAnswers(this.deps, stepName, values, current);
    if (!(await this.deps.store.update(record.id, toServerFields(values)))) throw sessionExpired();
    await this.deps.followUps.stepSaved(record.id, stepName);
    await this.deps.events?.append(stepCompletedEvent(record.id, stepName, this.deps.now(), true));

    const next = nextStepFor({ ...current, ...values });
    return { nextStep: next, progress: progressFor(next) };
  }

  private async create(
    answers: ClientLead,
    tracking: Record<string, unknown>,
    context: RequestContext,
  ): Promise<{ id: string; summary: LeadSummary }> {
    const fields = toServerFields({ ...answers, ipAddress: context.ip, userAgent: context.userAgent });
    const id = await this.deps.store.create(fields, tracking);
    await this.deps.events?.append(createdEvent(id, 'funnel', answers, tracking, this.deps.now()));
    // The new lead is exactly what was just written: summarise it without reading it back.
    return { id, summary: summarize({ id, fields, tracking }) };
  }
}

/** The lead as its visitor sees it: answers, sensitive ones masked, the next step and any outcome. */
function summarize(record: LeadRecord): LeadSummary {
  const all = toClientFields(record.fields) as ClientLead;
  const answers: Record<string, unknown> = {};
  const masked: Partial<Record<SensitiveClientField, string>> = {};
  for (const [field, value] of Object.entries(all)) {
    if ((SENSITIVE_CLIENT_FIELDS as readonly string[]).includes(field)) {
      masked[field as SensitiveClientField] = maskSensitive(field as SensitiveClientField, String(value));
    } else if (!SERVER_ONLY.has(field)) {
      answers[field] = value;
    }
  }
  const nextStep = nextStepFor(all);
  return {
    answers,
    masked,
    nextStep,
    // The last share of the bar is sending the application (docs/product-rules.md §wizard-order-and-progress).
    progress: record.submission || record.outcome ? 100 : progressFor(nextStep),
    ...(record.outcome ? { outcome: record.outcome } : {}),
  };
}

/** The landing request's tracking: URL parameters the page read, its cookies and Referer, consent tokens. */
function trackingOf(
  input: { tracking?: Tracking | undefined; landingParams?: LandingParams | undefined },
  context: RequestContext,
): Tracking {
  const query = input.landingParams ?? {};
  return resolveTracking({
    query,
    cookies: context.cookies ?? {},
    campaignType: query.campaign_type,
    referer: context.referer,
    reported: input.tracking,
  });
}

/**
 * The sealed answers a step save reads: the two phones, which must differ (validateStepAgainstLead). The others
 * (names, email, street, employer, IP, SSN, bank…) only count as present for the next step, and stay sealed.
 */
const OPENED_ON_SAVE: ReadonlySet<string> = new Set([CLIENT_TO_SERVER.phone, CLIENT_TO_SERVER.employerPhone]);

/** Recorded about the visitor, not answers they gave: never echoed back. */
const SERVER_ONLY = new Set<string>(['ipAddress', 'userAgent', 'createdAt', 'updatedAt', 'testMode']);
