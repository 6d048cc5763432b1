import {
  WEBHOOK_NOT_ENABLED,
  type PartnerLeadAccepted,
  type PartnerLeadRequestPayload,
  type PartnerLeadStatus,
} from '@funnel/contracts/partner-api';
import { isFinalOutcome } from '@funnel/contracts/lead-outcome';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { ReportFailure } from '../handled-failure.js';
import { HttpError } from '../http-error.js';
import { LostIdempotencyClaim, type LeadLifecycle } from '../lead/lead-lifecycle.js';
import { requestFingerprint, type IdempotencyClaim, type PartnerIdempotency } from './partner-idempotency.js';
import type { PartnerIdentity } from './partner-keyring.js';

export interface PartnerLeadsDeps {
  leads: Pick<LeadLifecycle, 'createFromPartner' | 'completeSubmission'>;
  store: Pick<LeadStore, 'getOutcome' | 'getPartner'>;
  idempotency: PartnerIdempotency;
  /** Partners with a webhook secret configured: only they may ask for a webhook. */
  webhookPartners: ReadonlySet<string>;
  reportFailure: ReportFailure;
}

function inProgress(): HttpError {
  return new HttpError(
    409,
    'CONFLICT',
    'A request with this Idempotency-Key is still being processed. Retry in a few seconds.',
  );
}

function keyReused(): HttpError {
  return new HttpError(
    422,
    'IDEMPOTENCY_KEY_REUSED',
    'This Idempotency-Key was already used with a different request body. Send a new key for a new request.',
  );
}

/** A partner reads only its own leads; anything else is indistinguishable from a lead that does not exist. */
function notFound(): HttpError {
  return new HttpError(404, 'NOT_FOUND', 'No lead with this id was posted with your API key.');
}

/** The answer to a POST, and whether an earlier request with the same `Idempotency-Key` created the lead. */
export interface PartnerLeadReceipt extends PartnerLeadAccepted {
  replayed: boolean;
}

/**
 * The partner API's use cases: accept a complete lead (once per `Idempotency-Key`) and tell its poster where it
 * stands. Leads are created and submitted by the lead lifecycle, exactly as the funnel's are.
 */
export class PartnerLeads {
  constructor(private readonly deps: PartnerLeadsDeps) {}

  async submit(
    partner: PartnerIdentity,
    body: PartnerLeadRequestPayload,
    idempotencyKey: string | undefined,
  ): Promise<PartnerLeadReceipt> {
    if (body.webhookUrl && !this.deps.webhookPartners.has(partner.partnerId)) {
      throw HttpError.validation({ webhookUrl: WEBHOOK_NOT_ENABLED });
    }
    if (idempotencyKey === undefined) return { ...(await this.create(partner, body)), replayed: false };

    const { idempotency } = this.deps;
    const claim = await idempotency.claim(partner.partnerId, idempotencyKey, requestFingerprint(body));
    if (claim.state === 'reused') throw keyReused();
    if (claim.state === 'done') {
      const outcome = await this.deps.store.getOutcome(claim.leadId);
      if (!outcome) throw notFound();
      // The first request may have failed its replica wait: the replay completes what a lead created before its
      // evidence went with it lacks, and says "created" only once it is durable.
      await this.deps.leads.completeSubmission(claim.leadId);
      return { leadId: claim.leadId, outcome: outcome.outcome, replayed: true };
    }
    if (claim.state === 'in-progress') {
      throw inProgress();
    }
    try {
      const accepted = await this.create(partner, body, { ...claim, idempotencyKey });
      return { ...accepted, replayed: false };
    } catch (error) {
      if (error instanceof LostIdempotencyClaim) {
        // A retry took the key over while this request looked dead: answer with what the key became.
        const leadId = await idempotency.boundLead(partner.partnerId, idempotencyKey);
        if (leadId) {
          await this.deps.leads.completeSubmission(leadId);
          return { leadId, outcome: 'pending', replayed: true };
        }
        throw inProgress();
      }
      // The lead and the key's binding are written in one step, so a failed request created nothing: free the
      // key. If Redis is down this fails too, and a retry takes the stale claim over after a few seconds.
      await idempotency
        .release(claim)
        .catch((releaseError: unknown) => this.deps.reportFailure('partner_key_release', releaseError));
      // Names the lead in the error line: a lead may exist under this id if the failure came after its creation.
      if (error instanceof Error && !(error instanceof HttpError))
        Object.assign(error, { leadId: claim.leadId });
      throw error;
    }
  }

  /** Where the partner's lead stands; 404 for a lead another partner (or the funnel) created. */
  async status(partner: PartnerIdentity, leadId: string): Promise<PartnerLeadStatus> {
    const owner = await this.deps.store.getPartner(leadId);
    if (owner?.partnerId !== partner.partnerId) throw notFound();
    const outcome = await this.deps.store.getOutcome(leadId);
    if (!outcome) throw notFound();
    return {
      leadId,
      outcome: outcome.outcome,
      ...(outcome.redirectUrl ? { redirectUrl: outcome.redirectUrl } : {}),
      ...(isFinalOutcome(outcome.outcome) ? { decidedAt: outcome.at } : {}),
    };
  }

  private create(
    partner: PartnerIdentity,
    body: PartnerLeadRequestPayload,
    claim?: Extract<IdempotencyClaim, { state: 'new' }> & { idempotencyKey: string },
  ): Promise<PartnerLeadAccepted> {
    return this.deps.leads.createFromPartner(
      body,
      { partnerId: partner.partnerId, affiliateId: partner.affiliateId },
      claim
        ? {
            leadId: claim.leadId,
            idempotency: { key: claim.key, claim: claim.claim, ttlMs: claim.ttlMs },
            idempotencyKey: claim.idempotencyKey,
          }
        : {},
    );
  }
}
