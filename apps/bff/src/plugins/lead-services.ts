import fp from 'fastify-plugin';
import { JOBS } from '@funnel/contracts/jobs';
import { enqueue } from '@funnel/server-runtime/job-queue';
import { replicaWaitOf } from '@funnel/server-runtime/replica-wait';
import type { Env } from '../env.js';
import { createAddressSuggestions, type AddressSuggestions } from '../lead/address-suggestions.js';
import { businessDate } from '../lead/business-date.js';
import { LeadLifecycle } from '../lead/lead-lifecycle.js';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { createRoutingLookup, type RoutingLookup } from '../lead/routing-lookup.js';
import type { ReferenceData } from '../reference-data/reference-data.js';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { ContactIndex } from '@funnel/lead-store/contact-index';
import { BorrowerIndex } from '@funnel/lead-store/borrower-index';
import { EventOutbox } from '@funnel/lead-store/event-outbox';
import { partnerListVersion } from '../consent/partner-list-version.js';
import { queuedFollowUps } from '../lead/lead-follow-ups.js';

declare module 'fastify' {
  interface FastifyInstance {
    referenceData: ReferenceData;
    routingLookup: RoutingLookup;
    addressSuggestions: AddressSuggestions;
    leadStore: LeadStore;
    leads: LeadLifecycle;
    /** Which leads hold an email or phone (keyed hashes), for deletion requests. */
    contactIndex: ContactIndex;
    /** The borrowers submitted within the duplicate window (keyed hashes). */
    borrowerIndex: BorrowerIndex;
  }
}

export interface LeadServicesOptions {
  env: Env;
  referenceData: ReferenceData;
  now: () => Date;
  /** Which answers are sealed at rest; default every sensitive and personal field (the lead store's). */
  sealedFields?: (field: string) => boolean;
}

const UPSTREAM_TIMEOUT_MS = 2500;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Wires the lead domain (store, lookups, lifecycle) onto the app. */
export default fp<LeadServicesOptions>(
  async (app, { env, referenceData, now, sealedFields }) => {
    const contactIndex = new ContactIndex(app.redis, {
      keyPrefix: env.REDIS_KEY_PREFIX,
      hashSecret: env.SUPPRESSION_HASH_SECRET,
      // A deletion request must still find the consent records, kept longer than any lead.
      ttlMs: Math.max(env.LEAD_TTL_DAYS, env.CONSENT_RETENTION_DAYS) * DAY_MS,
    });
    const store = new LeadStore(app.redis, new FieldCipher(env.FIELD_ENCRYPTION_KEYS), {
      keyPrefix: env.REDIS_KEY_PREFIX,
      ttlMs: env.LEAD_TTL_DAYS * 24 * 60 * 60 * 1000,
      contactIndex,
      replicaWait: replicaWaitOf(env),
      ...(sealedFields ? { sealed: sealedFields } : {}),
    });
    const routingLookup = createRoutingLookup(
      referenceData.routing,
      env.ROUTING_LOOKUP_URL ? { url: env.ROUTING_LOOKUP_URL, timeoutMs: UPSTREAM_TIMEOUT_MS } : undefined,
    );
    app.decorate('referenceData', referenceData);
    app.decorate('routingLookup', routingLookup);
    app.decorate(
      'addressSuggestions',
      createAddressSuggestions(
        env.ADDRESS_SUGGEST_URL
          ? { url: env.ADDRESS_SUGGEST_URL, timeoutMs: UPSTREAM_TIMEOUT_MS }
          : undefined,
      ),
    );
    app.decorate('leadStore', store);
    app.decorate('contactIndex', contactIndex);
    const borrowerIndex = new BorrowerIndex(app.redis, {
      keyPrefix: env.REDIS_KEY_PREFIX,
      hashSecret: env.SUPPRESSION_HASH_SECRET,
      windowMs: env.DUPLICATE_WINDOW_DAYS * DAY_MS,
    });
    app.decorate('borrowerIndex', borrowerIndex);
    app.decorate(
      'leads',
      new LeadLifecycle({
        store,
        zips: referenceData.zips,
        routing: routingLookup,
        today: () => businessDate(now(), env.BUSINESS_TIME_ZONE),
        now,
        decisionDeadlineMs: env.DECISION_DEADLINE_MS,
        consent: {
          partnerListVersion: partnerListVersion(env.PARTNER_LIST_VERSION, env.PARTNER_NAMES),
          retentionMs: env.CONSENT_RETENTION_DAYS * DAY_MS,
        },
        followUps: queuedFollowUps(app.leadJobs),
        borrowers: borrowerIndex,
        ...(env.DATABASE_URL
          ? { events: new EventOutbox(app.redis, { keyPrefix: env.REDIS_KEY_PREFIX }) }
          : {}),
        onDuplicate: (source, affiliate) =>
          app.metrics.duplicates.inc({ source, affiliate: affiliate ?? 'none' }),
        enqueueSubmission: async (leadId) => {
          await enqueue(app.submissionQueue, JOBS.submitLead, { leadId });
        },
      }),
    );
  },
  { name: 'lead-services', dependencies: ['redis', 'submission-queue', 'lead-jobs'] },
);
