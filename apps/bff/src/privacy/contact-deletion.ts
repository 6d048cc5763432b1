import type { DeletionRequestPayload, DeletionResult } from '@funnel/contracts/deletion-request';
import { CLIENT_TO_SERVER } from '@funnel/contracts/fields';
import type { BorrowerIndex } from '@funnel/lead-store/borrower-index';
import type { ContactIndex } from '@funnel/lead-store/contact-index';
import type { DiskErasure } from '@funnel/lead-store/disk-erasure';
import type { EventOutbox } from '@funnel/lead-store/event-outbox';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { SuppressionList } from '@funnel/lead-store/suppression-list';
import type { LeadJobs } from '../jobs/lead-jobs.js';
import { erasedEvent } from '../lead/lead-events.js';

export interface ContactDeletionDeps {
  store: LeadStore;
  contactIndex: ContactIndex;
  borrowers: Pick<BorrowerIndex, 'release'>;
  jobs: Pick<LeadJobs, 'removeAll' | 'buyerOptOut'>;
  suppression: SuppressionList;
  /** Notes that Redis's files must be rewritten, which the worker's compaction pass does (docs/adr/0014). */
  disk: Pick<DiskErasure, 'markErased'>;
  /** The consent archive in PostgreSQL (when configured): the person's records there go too. */
  archive?: { deleteConsents(leadIds: readonly string[]): Promise<number> };
  /** The system of record's event outbox (when configured): each erased lead's journey says it was erased. */
  events?: Pick<EventOutbox, 'append'>;
}

/** The sealed answers an erasure opens: the email and phone whose index entries it drops. */
const CONTACT_FIELDS: ReadonlySet<string> = new Set([CLIENT_TO_SERVER.email, CLIENT_TO_SERVER.phone]);

/**
 * Erases a person on an operator's verified request (docs/adr/0007-consent-retention-and-erasure.md): every
 * lead that held their email or phone, with its retained consent record (in Redis and in the archive), its queued
 * jobs, its contact-index entries and its duplicate-index hashes. What stays: the privacy requests they made
 * (unsubscribe, do-not-sell), which we must keep and keep honouring, the suppression hashes, and an entry
 * recording this erasure with the contact as keyed hashes only.
 */
export class ContactDeletion {
  constructor(private readonly deps: ContactDeletionDeps) {}

  async erase(request: DeletionRequestPayload): Promise<DeletionResult> {
    const contact = { email: request.email, phone: request.phone };
    const leadIds = await this.deps.contactIndex.leadsOf(contact);

    let jobsRemoved = 0;
    for (const leadId of leadIds) {
      jobsRemoved += await this.deps.jobs.removeAll(leadId);
      // The lead may hold another email or phone than the ones asked about: drop its entries there too.
      const lead = await this.deps.store.get(leadId, { open: (field) => CONTACT_FIELDS.has(field) });
      if (lead) await this.deps.contactIndex.remove(leadId, contactOf(lead.fields));
      // The duplicate index's keyed hashes of their SSN, email and birth date go with the lead.
      if (lead?.borrowerKeys) await this.deps.borrowers.release(lead.borrowerKeys, leadId);
    }
    const leadsDeleted = await this.deps.store.deleteLeads(leadIds);
    // After the Redis copies: a drain archiving one meanwhile finds its copy gone and drops what it archived.
    await this.deps.archive?.deleteConsents(leadIds);
    await this.deps.contactIndex.forget(contact);

    const requestId = await this.deps.suppression.recordDeletion(contact, { leadsDeleted, jobsRemoved });
    const at = new Date();
    await this.deps.events?.append(...leadIds.map((leadId) => erasedEvent(leadId, requestId, at)));
    // The buyers that received a lead erase it too (removeAll leaves this queue alone: it is how they hear).
    for (const leadId of leadIds) await this.deps.jobs.buyerOptOut(leadId, 'deletion', at);
    // Last: the rewrite must come after everything above has left Redis's memory.
    await this.deps.disk.markErased();
    return { requestId, leadsDeleted, jobsRemoved };
  }
}

function contactOf(fields: Record<string, unknown>): { email?: string; phone?: string } {
  const email = fields[CLIENT_TO_SERVER.email];
  const phone = fields[CLIENT_TO_SERVER.phone];
  return {
    ...(typeof email === 'string' ? { email } : {}),
    ...(typeof phone === 'string' ? { phone } : {}),
  };
}
