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
import {
  submissionEvidence,
  type EvidencePolicy,
  type SubmissionEvidence,
} from '@funnel/lead-store/submission-evidence';
import { activeTraceId } from '@funnel/server-runtime/tracing';
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
import { createdEvent, stepCompletedEvent } from './lead-events.js';

/** A duplicate borrower's lead ends at once as no lender, never posted. */
const DUPLICATE_OUTCOME: NewOutcome = { outcome: 'no_lender', reason: DUPLICATE_REASON };

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
      // A repeat: the first request may have died after the script. Its evidence is completed if it went
      // without (a submission recorded before the evidence went with it), and a pending lead's job is made sure
      // of; a final one (decided, or a duplicate never posted) needs none.
      await this.completeSubmission(record.id);
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
    const evidence = (duplicate?: { outcome: Outcome; of: string }) =>
      submissionEvidence(
        {
          leadId: record.id,
          consent,
          fields: record.fields,
          source: 'funnel',
          submittedAt: now,
          traceId: activeTraceId(),
          duplicate,
        },
        this.evidencePolicy,
      );
    if (original) {
      this.deps.onDuplicate?.('funnel', affiliateOf(tracking as Partial<Tracking>));
      const outcome = await this.finishDuplicate(
        record.id,
        evidence({ outcome: DUPLICATE_OUTCOME.outcome, of: original.leadId }),
        now,
        {
          [META.consent]: JSON.stringify(consent),
          [META.tracking]: JSON.stringify(tracking),
        },
      );
      return { outcome };
    }
    const outcome = await this.startSubmission(record.id, evidence(), now, {
      [META.consent]: JSON.stringify(consent),
      [META.tracking]: JSON.stringify(tracking),
      [META.borrowerKeys]: JSON.stringify(borrowerKeys),
    });
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
    // One step creates the complete, submitted lead with its evidence (and binds the idempotency key): a failure
    // leaves nothing, and a lead that exists has its evidence.
    const created = await this.deps.store.createSubmitted(leadId, {
      fields,
      tracking: leadTracking,
      state: this.submissionState(now),
      meta: {
        [META.consent]: JSON.stringify(consent),
        [META.partner]: JSON.stringify(meta),
        [META.borrowerKeys]: JSON.stringify(borrowerKeys),
      },
      evidence: submissionEvidence(
        {
          leadId,
          consent,
          fields,
          source: 'partner',
          submittedAt: now,
          traceId: activeTraceId(),
          before: [
            createdEvent(leadId, 'partner', values, leadTracking, now, {
              partnerId: partner.partnerId,
              idempotencyKey: options.idempotencyKey,
            }),
            ...STEP_NAMES.map((step) => stepCompletedEvent(leadId, step, now, false)),
          ],
        },
        this.evidencePolicy,
      ),
      ...(options.idempotency ? { idempotency: options.idempotency } : {}),
    });
    if (created === 'lost-claim') throw new LostIdempotencyClaim();
    if (created === 'exists') throw new Error(`lead id ${leadId} already taken`);
    await this.enqueue(leadId);
    return { leadId, outcome: 'pending' };
  }

  /**
   * Completes the evidence of a submitted lead that went without it (docs/adr/0026): what a repeat request does
   * before it answers, with the same script the submission writes it with.
   */
  async completeSubmission(leadId: string): Promise<void> {
    await this.deps.store.completeSubmission(leadId, this.evidencePolicy);
  }

  /** How this BFF keeps evidence: the consent retention, and lead events only when a system of record takes them. */
  private get evidencePolicy(): EvidencePolicy {
    return { retentionMs: this.deps.consent.retentionMs, withEvents: this.deps.events !== undefined };
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
   * Submits a funnel lead: records the submission with its evidence and the consent record (and any other meta
   * fields) in one step, once, marks the lead pending and enqueues it. A repeat finds the submission recorded
   * and answers the outcome in force, and the job id keeps the queue at one job.
   */
  private async startSubmission(
    leadId: string,
    evidence: SubmissionEvidence,
    now: Date,
    meta: Record<string, string>,
  ): Promise<Outcome> {
    const started = await this.deps.store.startSubmission(leadId, this.submissionState(now), evidence, meta);
    if (started === 'missing') throw sessionExpired();
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
    evidence: SubmissionEvidence,
    now: Date,
    meta: Record<string, string>,
  ): Promise<Outcome> {
    const finished = await this.deps.store.finishSubmission(
      leadId,
      this.submissionState(now),
      DUPLICATE_OUTCOME,
      evidence,
      meta,
    );
    if (finished === 'missing') throw sessionExpired();
    return (await this.deps.store.getOutcome(leadId))?.outcome ?? DUPLICATE_OUTCOME.outcome;
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
