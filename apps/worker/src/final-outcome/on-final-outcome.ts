import type { AffiliatePostbacks } from '@funnel/contracts/postbacks';
import type { EventOutbox } from '@funnel/lead-store/event-outbox';
import type { LeadStore } from '@funnel/lead-store/lead-store';
import type { EnqueueOptions, QueueSource } from '@funnel/server-runtime/job-queue';
import { createAffiliatePostbackNotifier } from './affiliate-postback-notifier.js';
import { createFinalOutcomeFollowUps } from './final-outcome-follow-ups.js';
import { createOutcomeRecorder } from './outcome-events.js';
import { createPartnerWebhookNotifier } from './partner-webhook-notifier.js';

export interface OnFinalOutcomeDeps {
  store: LeadStore;
  queues: QueueSource;
  postbacks: AffiliatePostbacks;
  /** The lead-event outbox, with a system of record: the outcome is recorded as an event. */
  events: EventOutbox | undefined;
  purgeGraceMs: number;
  retainCertificates: boolean;
  /** Overrides of the catalog's options for the jobs queued here (tests shorten the backoff). */
  jobOptions?: EnqueueOptions | undefined;
  /** Runs first (the waterfall gives back the cap places of an attempt left in flight). */
  before?: ((leadId: string) => Promise<unknown>) | undefined;
  /** Runs last. */
  after?: ((leadId: string) => Promise<void>) | undefined;
}

/**
 * Everything that follows a lead's final outcome, wherever it was stored (the submission job, a job that failed
 * for good, the reconciler): the partner's webhook, the affiliate's postback, the outcome event, and the purge
 * (and for a sale the certificate retain). Each is idempotent, so settling an outcome again adds nothing.
 */
export function createOnFinalOutcome(deps: OnFinalOutcomeDeps): (leadId: string) => Promise<void> {
  const { store, queues } = deps;
  const jobOptions = deps.jobOptions ? { jobOptions: deps.jobOptions } : {};
  const notifyPartner = createPartnerWebhookNotifier({ store, queues, ...jobOptions });
  const notifyAffiliate = createAffiliatePostbackNotifier({
    store,
    queues,
    postbacks: deps.postbacks,
    ...jobOptions,
  });
  const recordOutcome = deps.events ? createOutcomeRecorder({ store, events: deps.events }) : undefined;
  const scheduleFollowUps = createFinalOutcomeFollowUps({
    store,
    queues,
    purgeGraceMs: deps.purgeGraceMs,
    retainCertificates: deps.retainCertificates,
    ...jobOptions,
  });
  return async function onFinalOutcome(leadId: string): Promise<void> {
    await deps.before?.(leadId);
    await notifyPartner(leadId);
    await notifyAffiliate(leadId);
    await recordOutcome?.(leadId);
    await scheduleFollowUps(leadId);
    await deps.after?.(leadId);
  };
}
