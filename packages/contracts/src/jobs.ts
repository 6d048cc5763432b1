import * as z from 'zod';
import { CROSS_SELL_QUESTIONS } from './cross-sell.js';
import { POSTBACK_EVENTS, PostbackEventSchema } from './postbacks.js';

/**
 * The job catalog: every queue, its job name and its payload schema. Payloads carry ids only, never personal
 * data: the worker reads the lead from the store.
 */
export const SubmitLeadJobSchema = z.object({ leadId: z.string().min(16).max(64) });
export type SubmitLeadJob = z.infer<typeof SubmitLeadJobSchema>;

/** A partner lead reached its final outcome: tell the partner's webhook. */
export const PartnerWebhookJobSchema = z.object({ leadId: z.string().min(16).max(64) });
export type PartnerWebhookJob = z.infer<typeof PartnerWebhookJobSchema>;

/**
 * Every follow-up job of a lead carries the lead id and nothing else (mailing-list sync, cross-sell forwarding,
 * TrustedForm retain, sensitive-data purge): the worker reads what it needs from the store when it runs, so a
 * job never holds personal data and always acts on the lead as it is then.
 */
export const LeadJobSchema = z.object({ leadId: z.string().min(16).max(64) });
export type LeadJob = z.infer<typeof LeadJobSchema>;

/** An affiliate's lead reached an outcome the affiliate's postback fires on. */
export const AffiliatePostbackJobSchema = z.object({
  leadId: z.string().min(16).max(64),
  event: PostbackEventSchema,
});
export type AffiliatePostbackJob = z.infer<typeof AffiliatePostbackJobSchema>;

export const JOBS = {
  submitLead: {
    queue: 'lead-submission',
    name: 'submit-lead',
    schema: SubmitLeadJobSchema,
  },
  partnerWebhook: {
    queue: 'partner-webhooks',
    name: 'deliver-partner-webhook',
    schema: PartnerWebhookJobSchema,
  },
  /** Sync the lead's contact to the mailing list (Brevo): on the email step and again on submission. */
  mailingListSync: {
    queue: 'mailing-list',
    name: 'mailing-list-sync',
    schema: LeadJobSchema,
  },
  /** Forward the lead's cross-sell record to the cross-sell partner. */
  crossSellForward: {
    queue: 'cross-sell',
    name: 'cross-sell-forward',
    schema: LeadJobSchema,
  },
  /** Retain the TrustedForm certificate of a sold lead (TrustedForm API v4). */
  trustedFormRetain: {
    queue: 'trustedform',
    name: 'trustedform-retain',
    schema: LeadJobSchema,
  },
  /** Tell the lead's affiliate about its conversion (the affiliate's postback URL). */
  affiliatePostback: {
    queue: 'affiliate-postbacks',
    name: 'affiliate-postback',
    schema: AffiliatePostbackJobSchema,
  },
  /** Remove SSN, bank and licence numbers once the grace period after the final outcome has passed. */
  sensitiveDataPurge: {
    queue: 'data-retention',
    name: 'sensitive-data-purge',
    schema: LeadJobSchema,
  },
} as const;

/** BullMQ's key prefix under the deployment's key prefix, shared by producers (BFF) and consumers (worker). */
export function queuePrefix(keyPrefix: string): string {
  return `${keyPrefix}bull`;
}

/**
 * Options of a submit job. `jobId` is the lead id, so a lead has one job however often it is enqueued.
 * Attempts and backoff apply to the submission post; polling is paced by the worker itself.
 */
export const SUBMIT_LEAD_JOB_OPTIONS = {
  // A failed post is tried again at the poll cadence, not after a growing backoff: the lender may already
  // have decided (the idempotency key makes the retry safe), and every second waited is a second late.
  // Eight attempts over ~15 s of backoff plus the post timeouts ride out a short upstream outage.
  attempts: 8,
  backoff: { type: 'fixed', delay: 2000 },
  removeOnComplete: { age: 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/**
 * Options of a webhook job. `jobId` is the lead id: one delivery per lead however often its outcome is settled.
 * Eight attempts with exponential backoff from 10 s span about 21 minutes of a partner's downtime; after that
 * the partner still has GET /api/v1/partner/leads/:id.
 */
export const PARTNER_WEBHOOK_JOB_OPTIONS = {
  attempts: 8,
  backoff: { type: 'exponential', delay: 10_000 },
  removeOnComplete: { age: 7 * 24 * 3600, count: 10_000 },
  removeOnFail: { age: 7 * 24 * 3600 },
} as const;

/** Mailing-list sync: when a sync happens for a lead, which names its job. */
export const MAILING_LIST_SYNC_TRIGGERS = ['email-saved', 'submitted'] as const;
export type MailingListSyncTrigger = (typeof MAILING_LIST_SYNC_TRIGGERS)[number];

/**
 * Job ids of follow-up jobs. A lead has one job per trigger (mailing list) or per question answered yes
 * (cross-sell): a double click or a retry while it waits adds nothing, and a completed job is removed so a later
 * trigger of the same kind (the visitor corrects their email) syncs again. Retain and purge happen once per lead.
 */
export const FOLLOW_UP_JOB_IDS = {
  mailingListSync: (leadId: string, trigger: MailingListSyncTrigger) => `${leadId}.${trigger}`,
  crossSellForward: (leadId: string, question: string) => `${leadId}.${question}`,
  trustedFormRetain: (leadId: string) => leadId,
  sensitiveDataPurge: (leadId: string) => leadId,
  /** One postback per lead and event, however often the outcome is settled. */
  affiliatePostback: (leadId: string, event: string) => `${leadId}.${event}`,
} as const;

/** Attempts and backoff for calls to a third party that may be down for a while (about 20 minutes in all). */
const THIRD_PARTY_RETRIES = { attempts: 8, backoff: { type: 'exponential', delay: 5_000 } } as const;

/** Options of the follow-up jobs; `jobId` comes from {@link FOLLOW_UP_JOB_IDS}. */
export const FOLLOW_UP_JOB_OPTIONS = {
  mailingListSync: { ...THIRD_PARTY_RETRIES, removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600 } },
  crossSellForward: { ...THIRD_PARTY_RETRIES, removeOnComplete: true, removeOnFail: { age: 7 * 24 * 3600 } },
  trustedFormRetain: {
    ...THIRD_PARTY_RETRIES,
    removeOnComplete: { age: 7 * 24 * 3600 },
    removeOnFail: { age: 30 * 24 * 3600 },
  },
  // Kept a week once delivered (bull-board shows them), a month when every attempt failed.
  affiliatePostback: {
    ...THIRD_PARTY_RETRIES,
    removeOnComplete: { age: 7 * 24 * 3600 },
    removeOnFail: { age: 30 * 24 * 3600 },
  },
  // A purge that keeps failing is a bug to look at, not a third party to wait for: fewer, slower attempts.
  sensitiveDataPurge: {
    attempts: 5,
    backoff: { type: 'exponential', delay: 60_000 },
    removeOnComplete: true,
    removeOnFail: { age: 30 * 24 * 3600 },
  },
} as const;

/**
 * Every job id a lead can have, per queue: what a deletion request removes. Queues whose jobs are named by the
 * lead id alone (submission, partner webhook, retain, purge) list just the lead id.
 */
export function leadJobIds(leadId: string): Array<{ queue: string; jobIds: string[] }> {
  const variants: Partial<Record<keyof typeof JOBS, string[]>> = {
    mailingListSync: MAILING_LIST_SYNC_TRIGGERS.map((t) => FOLLOW_UP_JOB_IDS.mailingListSync(leadId, t)),
    crossSellForward: CROSS_SELL_QUESTIONS.map((q) => FOLLOW_UP_JOB_IDS.crossSellForward(leadId, q)),
    affiliatePostback: POSTBACK_EVENTS.map((e) => FOLLOW_UP_JOB_IDS.affiliatePostback(leadId, e)),
  };
  return (Object.keys(JOBS) as Array<keyof typeof JOBS>).map((job) => ({
    queue: JOBS[job].queue,
    jobIds: variants[job] ?? [leadId],
  }));
}

/** The Redis pub/sub channel (under the key prefix) on which outcome changes are published. */
export const OUTCOME_CHANNEL = 'lead-outcomes';

/** A message on the outcome channel. */
export const OutcomeMessageSchema = z.object({
  leadId: z.string(),
  seq: z.number().int().positive(),
});
export type OutcomeMessage = z.infer<typeof OutcomeMessageSchema>;
