import type * as z from 'zod';
import type {
  CreateLeadRequestSchema,
  DeepLinkLeadRequestSchema,
  LeadSummary,
  StepSaved,
} from '@funnel/contracts/api';
import { fieldErrors } from '@funnel/contracts/errors';
import {
  SENSITIVE_CLIENT_FIELDS,
  toClientFields,
  toServerFields,
  type ClientField,
  type SensitiveClientField,
} from '@funnel/contracts/fields';
import { ZIP_CODE_NOT_FOUND } from '@funnel/contracts/messages';
import { secondPayDate } from '@funnel/contracts/rules/pay-dates';
import {
  firstMissingStep,
  getStep,
  nextStepFor,
  progressFor,
  validateStepAgainstLead,
  type StepName,
} from '@funnel/contracts/steps';
import { createHash } from 'node:crypto';
import {
  CONSENT_VERSION,
  consentText,
  type ConsentRecord,
  type SubmitLeadRequest,
} from '@funnel/contracts/consent';
import type { LeadOutcome, SubmitAccepted } from '@funnel/contracts/lead-outcome';
import { META } from '@funnel/lead-store/lead-store';
import { HttpError } from '../http-error.js';
import type { ZipDirectory } from '../reference-data/zip-directory.js';
import type { RoutingLookup } from './routing-lookup.js';
import type { LeadRecord, LeadStore } from '@funnel/lead-store/lead-store';
import { maskLastFour } from './mask.js';

export type ClientLead = Partial<Record<ClientField, unknown>>;

export interface LeadLifecycleDeps {
  store: LeadStore;
  zips: ZipDirectory;
  routing: RoutingLookup;
  /** Today's date in the business time zone, 'YYYY-MM-DD'. */
  today: () => string;
  now: () => Date;
  /** Puts the lead's submission job on the queue (idempotent: one job per lead). */
  enqueueSubmission: (leadId: string) => Promise<void>;
  /** How long lenders have to decide before the lead ends as "no lender". */
  decisionDeadlineMs: number;
}

export interface SubmitContext extends RequestContext {
  /** Scheme and host the visitor used, for the consent record's page URL. */
  origin: string;
}

export interface RequestContext {
  ip: string;
  userAgent: string | undefined;
}

export function sessionExpired(): HttpError {
  return new HttpError(404, 'SESSION_EXPIRED', 'This session is invalid or expired. Please start over!');
}

/**
 * The lead lifecycle owned by the BFF: create a lead from the landing form, save one step at a time, and
 * summarise it back to its visitor. Route handlers call into this and nothing else.
 */
export class LeadLifecycle {
  constructor(private readonly deps: LeadLifecycleDeps) {}

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
      city: place.city,
      state: place.state,
      latitude: place.lat,
      longitude: place.lon,
      ...(input.email ? { email: input.email } : {}),
    };
    return this.create(answers, input.tracking ?? {}, context);
  }

  async createFromDeepLink(
    input: z.output<typeof DeepLinkLeadRequestSchema>,
    context: RequestContext,
  ): Promise<{ id: string; summary: LeadSummary }> {
    return this.create({ email: input.email, loanReason: input.loanReason }, input.tracking ?? {}, context);
  }

  async summary(leadId: string | undefined): Promise<LeadSummary> {
    return this.summarize(await this.load(leadId));
  }

  async saveStep(leadId: string | undefined, stepName: StepName, body: unknown): Promise<StepSaved> {
    const record = await this.load(leadId);
    if (record.submission)
      throw new HttpError(409, 'CONFLICT', 'This application has already been submitted.');
    const step = getStep(stepName);
    const parsed = step.schema.safeParse(body);
    if (!parsed.success) throw HttpError.validation(fieldErrors(parsed.error));
    const current = toClientFields(record.fields) as ClientLead;
    const values: ClientLead = { ...(parsed.data as ClientLead) };

    const crossField = validateStepAgainstLead(stepName, values, current, this.deps.today());
    if (Object.keys(crossField).length > 0) throw HttpError.validation(crossField);

    await this.derive(stepName, values, current);
    if (!(await this.deps.store.update(record.id, toServerFields(values)))) throw sessionExpired();

    const next = nextStepFor({ ...current, ...values });
    return { nextStep: next, progress: progressFor(next) };
  }

  /**
   * Submits a complete lead: stores the consent evidence, marks it pending and enqueues it, once. A double
   * click, a retry or a second tab gets the same answer and never a second job.
   */
  async submit(
    leadId: string | undefined,
    request: SubmitLeadRequest,
    context: SubmitContext,
  ): Promise<SubmitAccepted> {
    const record = await this.load(leadId);
    if (record.outcome) {
      await this.deps.enqueueSubmission(record.id);
      return { outcome: record.outcome.outcome };
    }
    const missing = firstMissingStep(toClientFields(record.fields) as ClientLead);
    if (missing) {
      const step = getStep(missing);
      throw new HttpError(
        400,
        'INCOMPLETE_LEAD',
        `Please complete the step "${step.title}" (${missing}) first.`,
        {
          step: missing,
        },
      );
    }
    const now = this.deps.now();
    const text = consentText(request.button);
    const consent: ConsentRecord = {
      version: CONSENT_VERSION,
      textSha256: createHash('sha256').update(text).digest('hex'),
      button: request.button,
      at: now.toISOString(),
      ip: context.ip,
      userAgent: context.userAgent ?? '',
      pageUrl: `${context.origin}${request.pagePath}`,
      ...pick(record.tracking, 'trustedFormUrl', 'jornayaLeadId'),
    };
    const started = await this.deps.store.startSubmission(
      record.id,
      {
        submittedAt: now.toISOString(),
        deadlineAt: new Date(now.getTime() + this.deps.decisionDeadlineMs).toISOString(),
      },
      { [META.consent]: JSON.stringify(consent) },
    );
    if (started === 'missing') throw sessionExpired();
    let outcome: LeadOutcome | undefined =
      started === 'created' ? await this.deps.store.setOutcome(record.id, { outcome: 'pending' }) : undefined;
    outcome ??= await this.deps.store.getOutcome(record.id);
    await this.deps.enqueueSubmission(record.id);
    return { outcome: outcome?.outcome ?? 'pending' };
  }

  /** The visitor's lead id and current outcome, for the event stream; 404 without a session. */
  async outcomeOf(leadId: string | undefined): Promise<{ id: string; outcome: LeadOutcome | undefined }> {
    const record = await this.load(leadId);
    return { id: record.id, outcome: record.outcome };
  }

  /** Fills the answers the server owns: place from ZIP, bank name from the directory, second pay date. */
  private async derive(stepName: StepName, values: ClientLead, current: ClientLead): Promise<void> {
    switch (stepName) {
      case 'address': {
        const place = this.deps.zips.lookup(String(values.zipCode));
        if (!place) throw HttpError.validation({ zipCode: ZIP_CODE_NOT_FOUND });
        Object.assign(values, {
          city: place.city,
          state: place.state,
          latitude: place.lat,
          longitude: place.lon,
        });
        break;
      }
      case 'aba': {
        // The directory's name wins over what the browser sent; the visitor's own is kept for unknown numbers.
        const bank = await this.deps.routing.lookup(String(values.routingNumber));
        if (bank) values.bankName = bank.bankName;
        break;
      }
      case 'payfreequency':
        if (typeof current.incomeNextDate1 === 'string') {
          values.incomeNextDate2 = secondPayDate(
            current.incomeNextDate1,
            values.incomePaymentFrequency as never,
          );
        }
        break;
      case 'nextpaydate':
        values.incomeNextDate2 = secondPayDate(
          String(values.incomeNextDate1),
          (current.incomePaymentFrequency ?? 'BIWEEKLY') as never,
        );
        break;
      default:
        break;
    }
  }

  private async create(
    answers: ClientLead,
    tracking: Record<string, unknown>,
    context: RequestContext,
  ): Promise<{ id: string; summary: LeadSummary }> {
    const fields = toServerFields({ ...answers, ipAddress: context.ip, userAgent: context.userAgent });
    const id = await this.deps.store.create(fields, tracking);
    const record = await this.deps.store.get(id);
    if (!record) throw new Error('lead vanished right after creation');
    return { id, summary: this.summarize(record) };
  }

  private async load(leadId: string | undefined): Promise<LeadRecord> {
    const record = leadId ? await this.deps.store.get(leadId) : null;
    if (!record) throw sessionExpired();
    return record;
  }

  private summarize(record: LeadRecord): LeadSummary {
    const all = toClientFields(record.fields) as ClientLead;
    const answers: Record<string, unknown> = {};
    const masked: Partial<Record<SensitiveClientField, string>> = {};
    for (const [field, value] of Object.entries(all)) {
      if ((SENSITIVE_CLIENT_FIELDS as readonly string[]).includes(field)) {
        masked[field as SensitiveClientField] = maskLastFour(String(value));
      } else if (!SERVER_ONLY.has(field)) {
        answers[field] = value;
      }
    }
    const nextStep = nextStepFor(all);
    return {
      answers,
      masked,
      nextStep,
      progress: progressFor(nextStep),
      ...(record.outcome ? { outcome: record.outcome } : {}),
    };
  }
}

function pick(source: Record<string, unknown>, ...keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) if (typeof source[key] === 'string') out[key] = source[key];
  return out;
}

/** Recorded about the visitor, not answers they gave: never echoed back. */
const SERVER_ONLY = new Set<string>(['ipAddress', 'userAgent', 'createdAt', 'updatedAt', 'testMode']);
