import type * as z from 'zod';
import type {
  CreateLeadRequestSchema,
  DeepLinkLeadRequestSchema,
  LeadSummary,
  StepSaved,
} from '@funnel/contracts/api';
import { fieldErrors } from '@funnel/contracts/errors';
import {
  CLIENT_TO_SERVER,
  SENSITIVE_CLIENT_FIELDS,
  toClientFields,
  toServerFields,
  type ClientField,
  type SensitiveClientField,
} from '@funnel/contracts/fields';
import { ZIP_CODE_NOT_FOUND } from '@funnel/contracts/messages';
import { secondPayDate } from '@funnel/contracts/rules/pay-dates';
import {
  STEP_NAMES,
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
  type SubmitButton,
  type SubmitLeadRequest,
} from '@funnel/contracts/consent';
import {
  DUPLICATE_REASON,
  isFinalOutcome,
  type LeadOutcome,
  type Outcome,
  type SubmitAccepted,
} from '@funnel/contracts/lead-outcome';
import {
  CONSENT_IN_FUTURE,
  partnerLeadProblems,
  type PartnerLeadAccepted,
  type PartnerLeadMeta,
  type PartnerLeadRequestPayload,
} from '@funnel/contracts/partner-api';
import { affiliateOf, resolveTracking, type LandingParams } from '@funnel/contracts/attribution';
import type { Tracking } from '@funnel/contracts/tracking';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { META, type NewOutcome, type StoredFields } from '@funnel/lead-store/lead-store';
import type { BorrowerIndex } from '@funnel/lead-store/borrower-index';
import { eventId, type EventOutbox } from '@funnel/lead-store/event-outbox';
import { retainedConsent } from '../consent/consent-evidence.js';
import { HttpError } from '../http-error.js';
import type { LeadFollowUps } from './lead-follow-ups.js';
import type { ZipDirectory } from '../reference-data/zip-directory.js';
import type { RoutingLookup } from './routing-lookup.js';
import { LeadStore, type LeadRecord } from '@funnel/lead-store/lead-store';
import { maskSensitive } from './mask.js';

/** The idempotency key was taken over by a later request (this one looked dead): nothing was created. */
export class LostIdempotencyClaim extends Error {
  constructor() {
    super('idempotency claim taken over by another request');
  }
}

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
  /** Consent evidence: the partner list version it names, and how long it is kept apart from the lead. */
  consent: { partnerListVersion: string; retentionMs: number };
  /** Jobs that follow a save or a submission (mailing-list sync). */
  followUps: LeadFollowUps;
  /** The borrowers submitted within the duplicate window (keyed hashes). */
  borrowers: Pick<BorrowerIndex, 'keysOf' | 'claim'>;
  /** Where lead events go for the system of record (issue 10); absent when no database is configured. */
  events?: Pick<EventOutbox, 'append'>;
  /** Counts a duplicate borrower refused, by source and affiliate. */
  onDuplicate?: (source: 'funnel' | 'partner', affiliate: string | undefined) => void;
}

export interface SubmitContext extends RequestContext {
  /** Scheme and host the visitor used, for the consent record's page URL. */
  origin: string;
}

export interface RequestContext {
  ip: string;
  userAgent: string | undefined;
  /** The request's cookies and Referer: attribution on the landing request (`resolveTracking`). */
  cookies?: Readonly<Record<string, string | undefined>>;
  referer?: string | undefined;
}

/** The partner posting a lead through the partner API, from their API key. */
export interface PartnerSource {
  partnerId: string;
  /** Overrides any `tracking.affiliateId` the partner sent: attribution follows the key. */
  affiliateId: string;
}

/** How far ahead of our clock a partner's consent time may be (their clock drifts too). */
const CONSENT_CLOCK_SKEW_MS = 5 * 60 * 1000;

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
    return this.summarize(await this.load(leadId));
  }

  /**
   * 'Start over' (decisions.md): the visitor's unfinished draft is erased from the store. A submitted lead is
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
    const record = await this.load(leadId, OPENED_ON_SAVE);
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
    await this.deps.followUps.stepSaved(record.id, stepName);
    await this.record({
      eventId: eventId(record.id, stepName, true),
      leadId: record.id,
      at: this.deps.now().toISOString(),
      type: 'step_completed',
      step: stepName,
    });

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
      // A repeat: make sure a pending lead's job exists (a request may have died after the script); a final
      // one (decided, or a duplicate never posted) needs none.
      if (!isFinalOutcome(record.outcome.outcome)) await this.enqueue(record.id);
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
    // Certificates sent with the button press are the ones of the consent page; the landing's are the fallback.
    const tracking = { ...record.tracking, ...pick(request, 'trustedFormUrl', 'jornayaLeadId') };
    const consent: ConsentRecord = {
      ...this.consentRecord(request.button),
      at: now.toISOString(),
      ip: context.ip,
      userAgent: context.userAgent ?? '',
      pageUrl: `${context.origin}${request.pagePath}`,
      ...pick(tracking, 'trustedFormUrl', 'jornayaLeadId'),
      partnerListVersion: this.deps.consent.partnerListVersion,
    };
    // A borrower another lead submitted within the window is not posted again (issue 12).
    const borrowerKeys = this.deps.borrowers.keysOf(borrowerOf(record.fields));
    const original = await this.deps.borrowers.claim(borrowerKeys, { leadId: record.id });
    if (original) {
      this.deps.onDuplicate?.('funnel', affiliateOf(tracking as Partial<Tracking>));
      const outcome = await this.finishDuplicate(record.id, consent, now, {
        [META.tracking]: JSON.stringify(tracking),
      });
      await this.record(submittedEvent(record.id, 'funnel', now), {
        eventId: eventId(record.id, 'outcome'),
        leadId: record.id,
        at: now.toISOString(),
        type: 'outcome',
        outcome,
        reason: DUPLICATE_REASON,
        secondsToDecision: 0,
      });
      return { outcome };
    }
    const outcome = await this.startSubmission(record.id, consent, now, {
      [META.tracking]: JSON.stringify(tracking),
      [META.borrowerKeys]: JSON.stringify(borrowerKeys),
    });
    await this.record(submittedEvent(record.id, 'funnel', now));
    await this.deps.followUps.submitted(record.id);
    return { outcome };
  }

  /**
   * Creates and submits a complete lead a partner posted (partner API): the same derivations as saving each
   * step (place from ZIP, bank name from the directory, second pay date), the same encryption, the partner's
   * consent evidence as the consent record, the key's affiliate id in the tracking, then the same submission
   * path as the funnel's submit button.
   */
  async createFromPartner(
    input: PartnerLeadRequestPayload,
    partner: PartnerSource,
    options: {
      /** The id the lead gets (the one an idempotency claim recorded); a new random one otherwise. */
      leadId?: string;
      idempotency?: { key: string; claim: string; ttlMs: number };
    } = {},
  ): Promise<PartnerLeadAccepted> {
    const { consent: evidence, tracking, webhookUrl, ...answers } = input;
    const values: ClientLead = { ...answers };
    const problems = partnerLeadProblems(values, this.deps.today());
    if (Object.keys(problems).length > 0) throw HttpError.validation(problems);
    const now = this.deps.now();
    if (Date.parse(evidence.at) > now.getTime() + CONSENT_CLOCK_SKEW_MS) {
      throw HttpError.validation({ consent: CONSENT_IN_FUTURE });
    }
    for (const step of STEP_NAMES) await this.derive(step, values, values);

    const consent: ConsentRecord = {
      ...this.consentRecord(evidence.button ?? 'REQUEST_FUNDS'),
      at: new Date(evidence.at).toISOString(),
      ip: evidence.ip,
      userAgent: evidence.userAgent,
      pageUrl: evidence.pageUrl,
      ...pick(evidence, 'trustedFormUrl', 'jornayaLeadId'),
    };
    // The consent tokens also travel to the lender network, as the funnel's landing page sends them.
    const leadTracking = {
      ...pick(evidence, 'trustedFormUrl', 'jornayaLeadId'),
      ...tracking,
      affiliateId: partner.affiliateId,
    };
    const fields = toServerFields({ ...values, ipAddress: evidence.ip, userAgent: evidence.userAgent });
    const leadId = options.leadId ?? LeadStore.newLeadId();
    const meta: PartnerLeadMeta = { partnerId: partner.partnerId, ...(webhookUrl ? { webhookUrl } : {}) };
    // A borrower submitted within the window is refused: the partner learns the earlier lead only if it was theirs.
    const borrowerKeys = this.deps.borrowers.keysOf(borrowerOf(fields));
    const original = await this.deps.borrowers.claim(borrowerKeys, { leadId, partnerId: partner.partnerId });
    if (original) {
      this.deps.onDuplicate?.('partner', partner.affiliateId);
      throw HttpError.duplicateLead(original.partnerId === partner.partnerId ? original.leadId : undefined);
    }
    // One step creates the complete, submitted lead (and binds the idempotency key): a failure leaves nothing.
    const created = await this.deps.store.createSubmitted(leadId, {
      fields,
      tracking: leadTracking,
      state: this.submissionState(now),
      meta: {
        [META.consent]: JSON.stringify(consent),
        [META.partner]: JSON.stringify(meta),
        [META.borrowerKeys]: JSON.stringify(borrowerKeys),
      },
      consent: { record: retainedConsent(leadId, consent, fields), ttlMs: this.deps.consent.retentionMs },
      ...(options.idempotency ? { idempotency: options.idempotency } : {}),
    });
    if (created === 'lost-claim') throw new LostIdempotencyClaim();
    if (created === 'exists') throw new Error(`lead id ${leadId} already taken`);
    await this.record(
      createdEvent(leadId, 'partner', values, leadTracking, now),
      ...STEP_NAMES.map((step) => ({
        eventId: eventId(leadId, step),
        leadId,
        at: now.toISOString(),
        type: 'step_completed' as const,
        step,
      })),
      submittedEvent(leadId, 'partner', now),
    );
    await this.enqueue(leadId);
    return { leadId, outcome: 'pending' };
  }

  /** Appends events for the system of record, when one is configured. */
  private async record(...events: LeadEvent[]): Promise<void> {
    await this.deps.events?.append(...events);
  }

  /** Puts the lead's job on the queue (job id = lead id), then clears its outbox entry. */
  private async enqueue(leadId: string): Promise<void> {
    await this.deps.enqueueSubmission(leadId);
    await this.deps.store.outboxDone(leadId);
  }

  private submissionState(now: Date) {
    return {
      submittedAt: now.toISOString(),
      deadlineAt: new Date(now.getTime() + this.deps.decisionDeadlineMs).toISOString(),
    };
  }

  /**
   * The one way a lead is submitted, from the funnel or a partner: records the submission with its consent
   * evidence (and any other meta fields) once, marks the lead pending and enqueues it. A repeat finds the
   * submission recorded and answers the outcome in force, and the job id keeps the queue at one job.
   */
  private async startSubmission(
    leadId: string,
    consent: ConsentRecord,
    now: Date,
    meta: Record<string, string> = {},
  ): Promise<Outcome> {
    const started = await this.deps.store.startSubmission(leadId, this.submissionState(now), {
      [META.consent]: JSON.stringify(consent),
      ...meta,
    });
    if (started === 'missing') throw sessionExpired();
    // The submission script stored the pending outcome and the outbox entry; retaining the consent again on a
    // repeat is harmless (the first record stays) and covers a request that died after the script.
    await this.retainConsent(leadId, consent);
    const outcome = await this.deps.store.getOutcome(leadId);
    await this.enqueue(leadId);
    return outcome?.outcome ?? 'pending';
  }

  /**
   * Submits a duplicate borrower's lead without posting it: it ends as no lender with the reason `duplicate`,
   * so no affiliate is paid for it. It never carries the earlier lead's outcome, redirect or answers: only the
   * session cookie proves who a visitor is, and nothing the browser sends (a visitor id, an email, an SSN)
   * stands in for it (issue 23).
   */
  private async finishDuplicate(
    leadId: string,
    consent: ConsentRecord,
    now: Date,
    meta: Record<string, string>,
  ): Promise<Outcome> {
    const outcome: NewOutcome = { outcome: 'no_lender', reason: DUPLICATE_REASON };
    const finished = await this.deps.store.finishSubmission(leadId, this.submissionState(now), outcome, {
      [META.consent]: JSON.stringify(consent),
      ...meta,
    });
    if (finished === 'missing') throw sessionExpired();
    await this.retainConsent(leadId, consent);
    return (await this.deps.store.getOutcome(leadId))?.outcome ?? outcome.outcome;
  }

  /**
   * Keeps the consent evidence apart from the lead for the retention period, so it outlives the lead's purge
   * and expiry. The first record stays, as on the lead.
   */
  private async retainConsent(leadId: string, consent: ConsentRecord): Promise<void> {
    const lead = await this.deps.store.get(leadId);
    if (!lead) throw sessionExpired();
    await this.deps.store.retainConsent(
      retainedConsent(leadId, lead.consent ?? consent, lead.fields),
      this.deps.consent.retentionMs,
    );
  }

  /** The version and hash of the consent text shown above `button`. */
  private consentRecord(button: SubmitButton): Pick<ConsentRecord, 'version' | 'textSha256' | 'button'> {
    return {
      version: CONSENT_VERSION,
      textSha256: createHash('sha256').update(consentText(button)).digest('hex'),
      button,
    };
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
    await this.record(createdEvent(id, 'funnel', answers, tracking, this.deps.now()));
    // The new lead is exactly what was just written: summarise it without reading it back.
    return { id, summary: this.summarize({ id, fields, tracking }) };
  }

  private async load(leadId: string | undefined, opened?: ReadonlySet<string>): Promise<LeadRecord> {
    const record = leadId
      ? await this.deps.store.get(leadId, opened ? { open: (field) => opened.has(field) } : {})
      : null;
    if (!record) throw sessionExpired();
    return record;
  }

  private summarize(record: LeadRecord): LeadSummary {
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
      progress: progressFor(nextStep),
      ...(record.outcome ? { outcome: record.outcome } : {}),
    };
  }
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

function pick(source: Record<string, unknown>, ...keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) if (typeof source[key] === 'string') out[key] = source[key];
  return out;
}

/** Recorded about the visitor, not answers they gave: never echoed back. */
/**
 * The sealed answers a step save reads: the two phones, which must differ (validateStepAgainstLead). The others
 * (names, email, street, employer, IP, SSN, bank…) only count as present for the next step, and stay sealed.
 */
const OPENED_ON_SAVE: ReadonlySet<string> = new Set([CLIENT_TO_SERVER.phone, CLIENT_TO_SERVER.employerPhone]);

const SERVER_ONLY = new Set<string>(['ipAddress', 'userAgent', 'createdAt', 'updatedAt', 'testMode']);

/** What identifies the borrower of a stored lead: SSN, email and birth date (server names). */
function borrowerOf(fields: StoredFields) {
  return {
    ssn: fields[CLIENT_TO_SERVER.socialSecurityNumber],
    email: fields[CLIENT_TO_SERVER.email],
    dob: fields[CLIENT_TO_SERVER.dob],
  };
}

/** The `created` event of a lead: attribution and the landing answers, never personal data. */
function createdEvent(
  leadId: string,
  source: 'funnel' | 'partner',
  answers: ClientLead,
  tracking: Record<string, unknown>,
  at: Date,
): LeadEvent {
  const text = (value: unknown) => (typeof value === 'string' && value ? value : undefined);
  const affiliate = affiliateOf(tracking as Partial<Tracking>);
  const utmSource = text(tracking.utmSource);
  const campaignType = text(tracking.campaignType);
  const loanReason = text(answers.loanReason);
  const state = text(answers.state);
  return {
    eventId: eventId(leadId, 'created'),
    leadId,
    at: at.toISOString(),
    type: 'created',
    source,
    ...(affiliate ? { affiliate } : {}),
    ...(utmSource ? { utmSource } : {}),
    ...(campaignType ? { campaignType } : {}),
    ...(typeof answers.amount === 'number' ? { amount: answers.amount } : {}),
    ...(loanReason ? { loanReason } : {}),
    ...(state ? { state } : {}),
  };
}

function submittedEvent(leadId: string, source: 'funnel' | 'partner', at: Date): LeadEvent {
  return { eventId: eventId(leadId, 'submitted'), leadId, at: at.toISOString(), type: 'submitted', source };
}
