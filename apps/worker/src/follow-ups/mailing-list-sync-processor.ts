import type { Job } from 'bullmq';
import { LeadJobSchema } from '@funnel/contracts/jobs';
import { MAILING_LIST_CONTACTS_PATH, mailingListContact } from '@funnel/contracts/mailing-list';
import type { FollowUpResult } from './follow-up-result.js';
import { contactSuppression, deliverContact, type ContactDeliveryDeps } from './contact-delivery.js';

/** Brevo's API v3: the base URL (`https://api.brevo.com/v3`), the key and the lists contacts join. */
export interface BrevoConfig {
  baseUrl: string;
  apiKey: string;
  listIds: number[];
}

export interface MailingListSyncDeps extends ContactDeliveryDeps {
  /** Unset without `BREVO_API_KEY`: every sync is skipped. */
  brevo: BrevoConfig | undefined;
}

/**
 * Syncs a lead's contact to the mailing list (Brevo `POST /contacts`, upsert). It reads the lead as it is now,
 * so a corrected email or a name given since the job was queued is what gets synced. A contact who unsubscribed
 * (by email or phone) is never sent, however the job got queued.
 */
export function createMailingListSyncProcessor(deps: MailingListSyncDeps) {
  return async function syncMailingList(job: Job): Promise<FollowUpResult> {
    const { leadId } = LeadJobSchema.parse(job.data);
    if (!deps.brevo) return { skipped: 'mailing list not configured' };
    const lead = await deps.store.get(leadId);
    if (!lead) return { skipped: 'lead no longer exists' };
    const contact = mailingListContact(lead.fields, deps.brevo.listIds);
    if (!contact) return { skipped: 'no email yet' };
    const suppressed = await contactSuppression(deps.suppression, contact.email, lead.fields);
    if (suppressed.unsubscribed) return { skipped: 'contact unsubscribed' };

    await deliverContact(
      deps,
      { job, leadId },
      {
        service: 'mailing list',
        url: `${deps.brevo.baseUrl}${MAILING_LIST_CONTACTS_PATH}`,
        body: contact,
        headers: { 'api-key': deps.brevo.apiKey },
      },
      { failed: 'mailing-list sync failed', done: 'contact synced to the mailing list' },
    );
    return { done: 'synced' };
  };
}
