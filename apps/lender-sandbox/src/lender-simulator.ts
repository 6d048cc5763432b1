import {
  LEAD_STATUS,
  type LeadStatus,
  type PingQuery,
  type PingResponse,
  type SubmissionPayload,
  type SubmitResponse,
} from '@funnel/contracts/lender-network';
import type { SandboxLead, SandboxStats } from '@funnel/contracts/lender-sandbox';
import type { SandboxBuyerStats } from '@funnel/contracts/sandbox-buyers';
import { errorBody } from './error-handler.js';
import type { ProtocolAnswer } from './fault-injector.js';
import { LeadLedger, type LeadRecord } from './lead-ledger.js';
import { declinedAddress, offerAddress } from './lender-addresses.js';
import { decideOutcome, statusAt } from './outcome-policy.js';
import type { OutcomeConfig, SandboxConfig } from './sandbox-config.js';
import { derivedId } from './seeded-random.js';

/** What the lender pages show about a lead. */
export interface LenderPageLead {
  status: LeadStatus;
  loanAmount: number;
}

/**
 * The simulated lender network: records leads once per lead id, decides their outcomes and answers the two
 * protocol calls. It makes answers; delivering them (latency, faults) is the fault injector's job.
 */
export class LenderSimulator {
  #config: OutcomeConfig;
  readonly #ledger: LeadLedger;
  #counters = zeroCounters();

  constructor(
    private readonly settings: Pick<SandboxConfig, 'publicUrl' | 'maxLeads' | 'outcome'> & {
      /** As a simulated buyer: leads from other states are rejected at once. */
      acceptStates?: readonly string[] | undefined;
    },
    private readonly now: () => number = Date.now,
  ) {
    this.#config = settings.outcome;
    this.#ledger = new LeadLedger(settings.maxLeads);
  }

  get config(): OutcomeConfig {
    return this.#config;
  }

  set config(config: OutcomeConfig) {
    this.#config = config;
  }

  /**
   * POST submit with a valid payload. The first post of a lead id creates the upstream lead (keeping the
   * `traceparent` it came with); every re-post finds it and answers its current state (the original answer, or
   * the final one once a pending lead resolved).
   */
  submit(payload: SubmissionPayload, received: unknown, traceparent?: string): ProtocolAnswer {
    this.#counters.posts += 1;
    let lead = this.#ledger.byPartnerLeadId(payload.partnerLeadId);
    if (!lead) {
      const receivedAt = this.now();
      lead = {
        partnerLeadId: payload.partnerLeadId,
        networkLeadId: derivedId(this.#config.seed, 'network-lead-id', payload.partnerLeadId),
        payload: received,
        ...(traceparent ? { traceparent } : {}),
        loanAmount: payload.loanAmount,
        receivedAt,
        decision:
          this.settings.acceptStates && !this.settings.acceptStates.includes(payload.state)
            ? {
                final: 'rejected',
                pendingUntil: receivedAt,
                pendingPings: 0,
                soldRedirect: false,
                rejectRedirect: false,
              }
            : decideOutcome(payload, this.#config, receivedAt),
        posts: 0,
        pings: 0,
      };
      this.#ledger.add(lead);
      this.#counters.distinctLeads += 1;
    }
    lead.posts += 1;
    const status = this.#statusOf(lead);
    const body: SubmitResponse = {
      data: { status, lead_id: lead.networkLeadId },
      ...this.#addresses(lead, status),
    };
    return { statusCode: 200, body, drawKey: ['post', lead.partnerLeadId, String(lead.posts)] };
  }

  /** POST submit whose body failed validation. */
  rejectInvalidPost(fields: Record<string, string>): ProtocolAnswer {
    this.#counters.posts += 1;
    this.#counters.invalidPosts += 1;
    return invalid(fields, ['post', 'invalid', String(this.#counters.invalidPosts)]);
  }

  /** GET ping with a valid query: the lead's status now; 404 for a lead id the network never handed out. */
  ping(query: PingQuery): ProtocolAnswer {
    this.#counters.pings += 1;
    const lead = this.#ledger.byNetworkLeadId(query.lead_id);
    if (!lead) {
      this.#counters.unknownLeadPings += 1;
      return {
        statusCode: 404,
        body: errorBody('NOT_FOUND', 'No lead with this lead_id.'),
        drawKey: ['ping', 'unknown', String(this.#counters.unknownLeadPings)],
      };
    }
    lead.pings += 1;
    const status = this.#statusOf(lead);
    const body: PingResponse = { data: { data: { status, ...this.#addresses(lead, status) } } };
    return { statusCode: 200, body, drawKey: ['ping', lead.networkLeadId, String(lead.pings)] };
  }

  /** GET ping whose query failed validation. */
  rejectInvalidPing(fields: Record<string, string>): ProtocolAnswer {
    this.#counters.pings += 1;
    this.#counters.invalidPings += 1;
    return invalid(fields, ['ping', 'invalid', String(this.#counters.invalidPings)]);
  }

  /** What the lender pages need, by the network's lead id. */
  pageLead(networkLeadId: string): LenderPageLead | undefined {
    const lead = this.#ledger.byNetworkLeadId(networkLeadId);
    return lead && { status: this.#statusOf(lead), loanAmount: lead.loanAmount };
  }

  /** The lead as the sandbox holds it, by our lead id, with the payload as received. */
  lead(partnerLeadId: string): SandboxLead | undefined {
    const lead = this.#ledger.byPartnerLeadId(partnerLeadId);
    if (!lead) return undefined;
    return {
      partnerLeadId: lead.partnerLeadId,
      networkLeadId: lead.networkLeadId,
      status: this.#statusOf(lead),
      posts: lead.posts,
      pings: lead.pings,
      receivedAt: new Date(lead.receivedAt).toISOString(),
      ...(lead.decision.pendingPings === 0
        ? { decidedAt: new Date(Math.max(lead.receivedAt, lead.decision.pendingUntil)).toISOString() }
        : {}),
      ...(lead.traceparent ? { traceparent: lead.traceparent } : {}),
      payload: lead.payload,
    };
  }

  /** Counters since the last reset; per-lead numbers cover the leads still held. */
  stats(): Omit<SandboxStats, 'faults' | 'oversizedPeakInFlight'> {
    const postsByPartnerLeadId: Record<string, number> = {};
    const outcomes = { pending: 0, sold: 0, rejected: 0 };
    for (const lead of this.#ledger.records()) {
      postsByPartnerLeadId[lead.partnerLeadId] = lead.posts;
      const status = this.#statusOf(lead);
      if (status === LEAD_STATUS.PENDING) outcomes.pending += 1;
      else if (status === LEAD_STATUS.SOLD) outcomes.sold += 1;
      else outcomes.rejected += 1;
    }
    return { ...this.#counters, storedLeads: this.#ledger.size, postsByPartnerLeadId, outcomes };
  }

  /**
   * The counters of this simulator as one of several buyers: a waterfall posts a lead once per buyer, so a
   * second upstream lead for the same `lead_id` is a repeated attempt.
   */
  buyerStats(id: string): SandboxBuyerStats {
    const keysByLead = new Map<string, number>();
    const outcomes = { pending: 0, sold: 0, rejected: 0 };
    let replays = 0;
    for (const lead of this.#ledger.records()) {
      const leadId = (lead.payload as { lead_id?: string }).lead_id ?? lead.partnerLeadId;
      keysByLead.set(leadId, (keysByLead.get(leadId) ?? 0) + 1);
      replays += lead.posts - 1;
      const status = this.#statusOf(lead);
      if (status === LEAD_STATUS.PENDING) outcomes.pending += 1;
      else if (status === LEAD_STATUS.SOLD) outcomes.sold += 1;
      else outcomes.rejected += 1;
    }
    let repeatedAttempts = 0;
    for (const n of keysByLead.values()) repeatedAttempts += n - 1;
    return {
      id,
      protocol: 'lead-service',
      attempts: this.#counters.distinctLeads,
      replays,
      repeatedAttempts,
      errors: this.#counters.invalidPosts,
      ...outcomes,
    };
  }

  /** Forgets every lead and zeroes the counters; the configuration stays. */
  reset(): void {
    this.#ledger.clear();
    this.#counters = zeroCounters();
  }

  #statusOf(lead: LeadRecord): LeadStatus {
    return statusAt(lead.decision, this.now(), lead.pings);
  }

  #addresses(lead: LeadRecord, status: LeadStatus): Pick<SubmitResponse, 'redirect_url' | 'rejectUrl'> {
    if (status === LEAD_STATUS.SOLD && lead.decision.soldRedirect) {
      return { redirect_url: offerAddress(this.settings.publicUrl, lead.networkLeadId) };
    }
    if (status === LEAD_STATUS.REJECTED && lead.decision.rejectRedirect) {
      return { rejectUrl: declinedAddress(this.settings.publicUrl, lead.networkLeadId) };
    }
    return {};
  }
}

function zeroCounters() {
  return { posts: 0, invalidPosts: 0, distinctLeads: 0, pings: 0, unknownLeadPings: 0, invalidPings: 0 };
}

function invalid(fields: Record<string, string>, drawKey: readonly string[]): ProtocolAnswer {
  const message = Object.values(fields)[0] ?? 'The request is not valid.';
  return { statusCode: 400, body: errorBody('VALIDATION_FAILED', message, fields), drawKey };
}
