import type { Job } from 'bullmq';
import type { Logger } from 'pino';
import { LeadJobSchema } from '@funnel/contracts/jobs';
import { CLIENT_TO_SERVER } from '@funnel/contracts/fields';
import { MAILING_LIST_CONTACTS_PATH, mailingListContact } from '@funnel/contracts/mailing-list';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { SuppressionList } from '@funnel/lead-store/suppression-list';
import type { FollowUpResult } from './follow-up-result.js';
import { failJob, type OutboundHttp } from './outbound-http.js';

/** Brevo's API v3: the base URL (`https://api.brevo.com/v3`), the key and the lists contacts join. */
export interface BrevoConfig {
  baseUrl: string;
  apiKey: string;
  listIds: number[];
}

export interface MailingListSyncDeps {
  store: Pick<LeadStore, 'get'>;
  suppression: Pick<SuppressionList, 'isSuppressed'>;
  http: Pick<OutboundHttp, 'postJson'>;
  /** Unset without `BREVO_API_KEY`: every sync is skipped. */
  brevo: BrevoConfig | undefined;
  logger: Logger;
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
    const phone = lead.fields[CLIENT_TO_SERVER.phone];
    const suppressed = await deps.suppression.isSuppressed({
      email: contact.email,
      phone: typeof phone === 'string' ? phone : undefined,
    });
    if (suppressed.unsubscribed) return { skipped: 'contact unsubscribed' };

    try {
      await deps.http.postJson(
        'mailing list',
        `${deps.brevo.baseUrl}${MAILING_LIST_CONTACTS_PATH}`,
        contact,
        {
          'api-key': deps.brevo.apiKey,
        },
      );
    } catch (error) {
      deps.logger.warn({ leadId, jobId: job.id, err: (error as Error).message }, 'mailing-list sync failed');
      failJob(error);
    }
    deps.logger.info({ leadId, jobId: job.id }, 'contact synced to the mailing list');
    return { done: 'synced' };
  };
}
