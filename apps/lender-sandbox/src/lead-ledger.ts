import type { LeadDecision } from './outcome-policy.js';

/** One upstream lead: created by the first post of our lead id, found again by every re-post and ping. */
export interface LeadRecord {
  partnerLeadId: string;
  /** The network's id for the lead, handed out in the submit answer and used to ping. */
  networkLeadId: string;
  /** The body exactly as received on the first post (later posts of the same lead id are not kept). */
  payload: unknown;
  loanAmount: number;
  /** Ms since the epoch. */
  receivedAt: number;
  /** The W3C trace context the first post came with, if any: what a real network's logs would show of us. */
  traceparent?: string;
  decision: LeadDecision;
  posts: number;
  pings: number;
}

/**
 * The sandbox's leads, in memory: it is a test double, so a restart forgets everything. Bounded: beyond
 * `maxLeads` the oldest lead is forgotten (a re-post of it then creates a new upstream lead, and its pings 404).
 */
export class LeadLedger {
  readonly #byPartnerLeadId = new Map<string, LeadRecord>();
  readonly #partnerLeadIdByNetworkId = new Map<string, string>();

  constructor(private readonly maxLeads: number) {}

  get size(): number {
    return this.#byPartnerLeadId.size;
  }

  byPartnerLeadId(partnerLeadId: string): LeadRecord | undefined {
    return this.#byPartnerLeadId.get(partnerLeadId);
  }

  byNetworkLeadId(networkLeadId: string): LeadRecord | undefined {
    const partnerLeadId = this.#partnerLeadIdByNetworkId.get(networkLeadId);
    return partnerLeadId === undefined ? undefined : this.#byPartnerLeadId.get(partnerLeadId);
  }

  add(record: LeadRecord): void {
    this.#byPartnerLeadId.set(record.partnerLeadId, record);
    this.#partnerLeadIdByNetworkId.set(record.networkLeadId, record.partnerLeadId);
    while (this.#byPartnerLeadId.size > this.maxLeads) {
      const oldest = this.#byPartnerLeadId.values().next().value;
      if (!oldest) break;
      this.#byPartnerLeadId.delete(oldest.partnerLeadId);
      this.#partnerLeadIdByNetworkId.delete(oldest.networkLeadId);
    }
  }

  records(): IterableIterator<LeadRecord> {
    return this.#byPartnerLeadId.values();
  }

  clear(): void {
    this.#byPartnerLeadId.clear();
    this.#partnerLeadIdByNetworkId.clear();
  }
}
