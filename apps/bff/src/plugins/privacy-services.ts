import fp from 'fastify-plugin';
import { DiskErasure } from '@funnel/lead-store/disk-erasure';
import { EventOutbox } from '@funnel/lead-store/event-outbox';
import { SuppressionList, type RequestSealer } from '@funnel/lead-store/suppression-list';
import { ContactDeletion } from '../privacy/contact-deletion.js';
import { PrivacyRequests } from '../privacy/privacy-requests.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Who unsubscribed or asked not to be sold: consult before any mailing-list sync, cross-sell or sharing. */
    suppressionList: SuppressionList;
    privacyRequests: PrivacyRequests;
    /** Erases a person's leads on an operator's verified deletion request. */
    contactDeletion: ContactDeletion;
  }
}

export interface PrivacyServicesOptions {
  keyPrefix: string;
  hashSecret: string;
  /** Seals each request before it enters the Redis stream (FIELD_ENCRYPTION_KEYS). */
  sealer: RequestSealer;
  /** The consent archive in the system of record, when one is configured: erasure reaches it too. */
  archive?: { deleteConsents(leadIds: readonly string[]): Promise<number> };
  /** Whether a system of record drains the lead events: erasures then append one per erased lead. */
  recordEvents?: boolean;
}

/** Wires the privacy requests and the suppression list they feed onto the app. */
export default fp<PrivacyServicesOptions>(
  async (app, { keyPrefix, hashSecret, sealer, archive, recordEvents }) => {
    const suppression = new SuppressionList(app.redis, { keyPrefix, hashSecret, sealer });
    app.decorate('suppressionList', suppression);
    app.decorate(
      'privacyRequests',
      new PrivacyRequests({
        suppression,
        leads: app.leadStore,
        contactIndex: app.contactIndex,
        jobs: app.leadJobs,
      }),
    );
    app.decorate(
      'contactDeletion',
      new ContactDeletion({
        store: app.leadStore,
        contactIndex: app.contactIndex,
        borrowers: app.borrowerIndex,
        jobs: app.leadJobs,
        suppression,
        disk: new DiskErasure(app.redis, { keyPrefix }),
        ...(archive ? { archive } : {}),
        ...(recordEvents ? { events: new EventOutbox(app.redis, { keyPrefix }) } : {}),
      }),
    );
  },
  { name: 'privacy-services', dependencies: ['redis', 'lead-services', 'lead-jobs'] },
);
