import fp from 'fastify-plugin';
import { JOBS, SUBMIT_LEAD_JOB_OPTIONS } from '@funnel/contracts/jobs';
import type { Env } from '../env.js';
import { createAddressSuggestions, type AddressSuggestions } from '../lead/address-suggestions.js';
import { businessDate } from '../lead/business-date.js';
import { LeadLifecycle } from '../lead/lead-lifecycle.js';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { createRoutingLookup, type RoutingLookup } from '../lead/routing-lookup.js';
import type { ReferenceData } from '../reference-data/reference-data.js';
import { FieldCipher } from '@funnel/lead-store/field-cipher';

declare module 'fastify' {
  interface FastifyInstance {
    referenceData: ReferenceData;
    routingLookup: RoutingLookup;
    addressSuggestions: AddressSuggestions;
    leadStore: LeadStore;
    leads: LeadLifecycle;
  }
}

export interface LeadServicesOptions {
  env: Env;
  referenceData: ReferenceData;
  now: () => Date;
}

const UPSTREAM_TIMEOUT_MS = 2500;

/** Wires the lead domain (store, lookups, lifecycle) onto the app. */
export default fp<LeadServicesOptions>(
  async (app, { env, referenceData, now }) => {
    const store = new LeadStore(app.redis, new FieldCipher(env.FIELD_ENCRYPTION_KEYS), {
      keyPrefix: env.REDIS_KEY_PREFIX,
      ttlMs: env.LEAD_TTL_DAYS * 24 * 60 * 60 * 1000,
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
    app.decorate(
      'leads',
      new LeadLifecycle({
        store,
        zips: referenceData.zips,
        routing: routingLookup,
        today: () => businessDate(now(), env.BUSINESS_TIME_ZONE),
        now,
        decisionDeadlineMs: env.DECISION_DEADLINE_MS,
        enqueueSubmission: async (leadId) => {
          await app.submissionQueue.add(
            JOBS.submitLead.name,
            { leadId },
            { ...SUBMIT_LEAD_JOB_OPTIONS, jobId: leadId },
          );
        },
      }),
    );
  },
  { name: 'lead-services', dependencies: ['redis', 'submission-queue'] },
);
