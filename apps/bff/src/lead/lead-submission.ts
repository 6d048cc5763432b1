import { createHash } from 'node:crypto';
import { affiliateOf } from '@funnel/contracts/attribution';
import {
  CONSENT_VERSION,
  consentText,
  type ConsentRecord,
  type SubmitButton,
  type SubmitLeadRequest,
} from '@funnel/contracts/consent';
import { CLIENT_TO_SERVER, toClientFields, toServerFields } from '@funnel/contracts/fields';
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
import { STEP_NAMES, firstMissingStep, getStep } from '@funnel/contracts/steps';
import type { Tracking } from '@funnel/contracts/tracking';
import { LeadStore, META, type NewOutcome, type StoredFields } from '@funnel/lead-store/lead-store';
import { retainedConsent } from '../consent/consent-evidence.js';
import { HttpError } from '../http-error.js';
import { deriveAnswers } from './derive-answers.js';
import {
  LostIdempotencyClaim,
  loadLead,
  sessionExpired,
  type ClientLead,
  type LeadLifecycleDeps,
  type PartnerSource,
  type SubmitContext,
} from './lead-context.js';
import { createdEvent, duplicateOutcomeEvent, stepCompletedEvent, submittedEvent } from './lead-events.js';

/** How far ahead of our clock a partner's consent time may be (their clock drifts too). */
const CONSENT_CLOCK_SKEW_MS = 5 * 60 * 1000;

/**
 * Submitting a lead, from the funnel's button or a partner's post: the consent evidence (kept on the lead and
 * apart from it), the duplicate borrower check, the pending outcome and the queue job, once.
 */
export class LeadSubmission {
  constructor(private readonly deps: LeadLifecycleDeps) {}

  /**
   * Submits a complete lead: stores the consent evidence, marks it pending and enqueues it, once. A double
   * click, a retry or a second tab gets the same answer and never a second job.
   */
  async submit(
    leadId: string | undefined,
    request: SubmitLeadRequest,
    context: SubmitContext,
  ): Promise<SubmitAccepted> {
    const record = await loadLead(this.deps.store, leadId);
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
      await this.deps.events?.append(
        submittedEvent(record.id, 'funnel', now),
        duplicateOutcomeEvent(record.id, outcome, now),
      );
      return { outcome };
    }
    const outcome = await this.startSubmission(record.id, consent, now, {
      [META.tracking]: JSON.stringify(tracking),
      [META.borrowerKeys]: JSON.stringify(borrowerKeys),
    });
    await this.deps.events?.append(submittedEvent(record.id, 'funnel', now));
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
      /** The partner's `Idempotency-Key` as sent, recorded so the operator can find the lead by it. */
      idempotencyKey?: string;
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
    for (const step of STEP_NAMES) await deriveAnswers(this.deps, step, values, values);

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
    await this.deps.events?.append(
      createdEvent(leadId, 'partner', values, leadTracking, now, {
        partnerId: partner.partnerId,
        idempotencyKey: options.idempotencyKey,
      }),
      ...STEP_NAMES.map((step) => stepCompletedEvent(leadId, step, now, false)),
      submittedEvent(leadId, 'partner', now),
    );
    await this.enqueue(leadId);
    return { leadId, outcome: 'pending' };
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
    const record = await loadLead(this.deps.store, leadId);
    return { id: record.id, outcome: record.outcome };
  }
}

/** What identifies the borrower of a stored lead: SSN, email and birth date (server names). */
function borrowerOf(fields: StoredFields) {
  return {
    ssn: fields[CLIENT_TO_SERVER.socialSecurityNumber],
    email: fields[CLIENT_TO_SERVER.email],
    dob: fields[CLIENT_TO_SERVER.dob],
  };
}

function pick(source: Record<string, unknown>, ...keys: string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const key of keys) if (typeof source[key] === 'string') out[key] = source[key];
  return out;
}
