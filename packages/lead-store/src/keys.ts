import { OUTCOME_CHANNEL } from '@funnel/contracts/jobs';

/**
 * The Redis layout: every key the lead store writes, in one place. Each name starts with the configured prefix
 * (`REDIS_KEY_PREFIX`), so tests and tenants never collide. Personal data is either sealed (AES-256-GCM, the
 * lead's answers and the consent evidence) or only present as a keyed hash (HMAC-SHA256 under
 * `SUPPRESSION_HASH_SECRET`): no key name holds a contact in clear.
 *
 * Kept by the apps, under the same prefix (listed so this file shows the whole layout):
 * - `waterfall:{leadId}` (worker, hash): where a lead's walk down the buyer waterfall stands; lives until a day
 *   past the lead's decision deadline.
 * - `buyer-cap:{buyer}:hour:{n}`, `buyer-cap:{buyer}:day:{date}` (worker, counters): a buyer's hourly and daily
 *   caps; each lives for its hour or day.
 * - `partner-idempotency:{partnerId}:{digest}` and `…:body` (BFF, strings): a partner's `Idempotency-Key` and the
 *   fingerprint of the body it came with; a day (`IDEMPOTENCY_KEY_TTL_MS`).
 * - `partners:source-names` (BFF, string): the cached partner names; 5 minutes (30 s after a failed fetch).
 * - `rate-limit:*` (BFF): @fastify/rate-limit's counters; one window.
 * - `bull:*` (BFF and worker): BullMQ's queues (`queuePrefix` in `@funnel/contracts/jobs`); kept per job options.
 */
export function redisKeys(prefix: string) {
  return {
    /**
     * One hash per lead: the answers under server field names (JSON, sealed when sensitive or personal) and the
     * meta fields starting with `_` (`META` in `lead-record.ts`). Lives `LEAD_TTL_DAYS`, renewed by every save.
     */
    lead: (leadId: string) => `${prefix}lead:${leadId}`,
    /** What every lead key starts with (the reseal scan, the borrower index's existence check). */
    leadPrefix: `${prefix}lead:`,
    /**
     * The right to post a lead to the lender network (`post-claim.ts`): '1' while one worker posts it. Lives the
     * post's longest wait (connect + headers timeouts + 1 s), deleted once the post answers.
     */
    postClaim: (leadId: string) => `${prefix}lead:${leadId}:posting`,
    /**
     * A lead's affiliate postback attempts, oldest first (`postback-log.ts`, list of JSON). Lives the worker's
     * postback log TTL after the latest attempt.
     */
    postbacks: (leadId: string) => `${prefix}postbacks:${leadId}`,
    /**
     * The consent evidence kept apart from the lead (`retained-consent.ts`, string, sealed whole). Lives
     * `CONSENT_RETENTION_DAYS` (years), beyond the lead; the first record stays.
     */
    consent: (leadId: string) => `${prefix}consent:${leadId}`,
    /** What every retained consent key starts with (the reseal scan). */
    consentPrefix: `${prefix}consent:`,
    /**
     * The submission outbox (`submission-index.ts`, sorted set: lead id scored by submission time): leads
     * marked submitted whose queue job may not exist yet. No TTL; an entry goes once its job exists.
     */
    submissionOutbox: `${prefix}submission-outbox`,
    /**
     * Submitted leads without a final outcome (`submission-index.ts`, sorted set scored by decision deadline):
     * what the reconciler watches. No TTL; an entry goes with the final outcome or the lead.
     */
    submissionPending: `${prefix}submission-pending`,
    /** Pub/sub channel announcing outcome changes (`{ leadId, seq }`); stores nothing. */
    outcomeChannel: `${prefix}${OUTCOME_CHANNEL}`,
    /**
     * The lead-event stream for the system of record (`event-outbox.ts`). No TTL; the worker drains it into
     * PostgreSQL.
     */
    leadEvents: `${prefix}lead-events`,
    /**
     * Which leads hold an email or phone (`contact-index.ts`, set of lead ids per keyed hash), for deletion
     * requests. Lives the longer of the lead TTL and the consent retention after its last write.
     */
    contactLeads: (contactHash: string) => `${prefix}contact-leads:${contactHash}`,
    /**
     * The lead holding a borrower (`borrower-index.ts`, JSON holder per keyed hash of the SSN, or of the email
     * with the birth date). Lives the duplicate window (`DUPLICATE_WINDOW_DAYS`).
     */
    borrower: (borrowerHash: string) => `${prefix}borrower:${borrowerHash}`,
    /**
     * Every privacy request, append-only (`suppression-list.ts`, stream, the request sealed). No TTL; the worker
     * moves it to PostgreSQL.
     */
    privacyRequests: `${prefix}privacy-requests`,
    /** The suppressed contacts (`suppression-list.ts`, hash `{type}:{email|phone}:{hmac}` → first time). No TTL. */
    suppression: `${prefix}suppression`,
    /**
     * A privacy request already recorded for a contact (`suppression-list.ts`, string: its request id), so a
     * repeat stores nothing new. Lives the duplicate window (a day by default).
     */
    privacyRequestSeen: (type: string, contactHash: string) =>
      `${prefix}privacy-request-seen:${type}:${contactHash}`,
    /**
     * The time of the latest erasure not yet rewritten out of the AOF and RDB (`disk-erasure.ts`, epoch ms by
     * Redis's clock). No TTL; cleared by the compaction pass that covers it.
     */
    erasurePendingRewrite: `${prefix}erasure:pending-rewrite`,
  } as const;
}

export type RedisKeys = ReturnType<typeof redisKeys>;
