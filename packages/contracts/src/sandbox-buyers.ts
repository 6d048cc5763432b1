/**
 * The lender sandbox's simulated buyers (issue 13): how each one answers, and the counters a benchmark reads
 * back from GET /_sandbox/buyers. Not part of any buyer protocol.
 */
import * as z from 'zod';
import { ReturnReasonSchema } from './buyer-api.js';
import { BuyerIdSchema } from './buyers.js';
import { ScreeningBandSchema } from './screening.js';

const share = z.number().min(0).max(1);
const millis = z.number().int().min(0).max(600_000);
const stateCode = z.string().regex(/^[A-Z]{2}$/);

const common = {
  /** Served under /buyers/{id}. */
  id: BuyerIdSchema,
  /** Seed of every draw of this buyer: the same seed and the same leads give the same answers. */
  seed: z.number().int().min(0).max(0xffff_ffff),
  /** Leads from other states are rejected at once; left out, every state is taken. */
  states: z.array(stateCode).min(1).optional(),
  /** Each answer takes a duration drawn uniformly from [latencyMinMs, latencyMaxMs]. */
  latencyMinMs: millis.default(20),
  latencyMaxMs: millis.default(200),
  /**
   * Returns (ADR 0020): this buyer returns a seeded share of the leads it bought (sync-post and ping-post
   * buyers), calling the product's buyer API (`SANDBOX_RETURNS_URL`) with `apiKey` after a delay drawn from
   * [delayMinMs, delayMaxMs], with a reason drawn from `reasons`. Left out, or without SANDBOX_RETURNS_URL,
   * it returns nothing.
   */
  returns: z
    .object({
      rate: share,
      delayMinMs: millis.default(1000),
      delayMaxMs: millis.default(5000),
      apiKey: z.string().min(1),
      reasons: z.array(ReturnReasonSchema).min(1).default(['invalid_contact']),
    })
    .strict()
    .refine((r) => r.delayMinMs <= r.delayMaxMs, {
      message: 'delayMinMs must not exceed delayMaxMs',
      path: ['delayMinMs'],
    })
    .optional(),
};

export const SandboxBuyerSchema = z.discriminatedUnion('protocol', [
  z
    .object({
      ...common,
      protocol: z.literal('lead-service'),
      soldShare: share.default(0.5),
      /** Share answered pending (status 3) for a duration drawn from [pendingMinMs, pendingMaxMs]. */
      pendingShare: share.default(0.5),
      pendingMinMs: millis.default(2000),
      pendingMaxMs: millis.default(10_000),
    })
    .strict(),
  z
    .object({
      ...common,
      protocol: z.literal('sync-post'),
      /** Share of leads the buyer wants at any price; the others are rejected at every floor. */
      interestShare: share.default(0.7),
      /**
       * What an interested buyer would pay at most is drawn uniformly from [0, maxValue] per lead, so the chance
       * of a sale at floor f is interestShare × (1 − f / maxValue): it rises as the floor falls.
       */
      maxValue: z.number().positive().max(100_000).default(100),
      /** The price bid lies this share of the way from the floor up to the buyer's value. */
      bidShare: share.default(0.3),
      /**
       * A slow buyer (issue 28): this share of leads (drawn per lead, so every floor of a slow lead is slow) is
       * answered after `slowMs` instead of the drawn latency; still never later than the post's
       * `MaxResponseTime`, when it is rejected.
       */
      slowShare: share.default(0),
      slowMs: millis.default(0),
    })
    .strict(),
  z
    .object({
      ...common,
      protocol: z.literal('ping-post'),
      /** Share of pings answered with a bid; the others get no bid. */
      bidRate: share.default(0.8),
      /** Each bid's price is drawn uniformly from [bidMin, bidMax] dollars. */
      bidMin: z.number().positive().max(100_000).default(5),
      bidMax: z.number().positive().max(100_000).default(60),
      /**
       * Share of posts of a live, untampered bid the buyer accepts, drawn per bid whatever its price: what a
       * buyer's bids do not tell, and what a ranking by expected value learns (issue 27).
       */
      acceptShare: share.default(0.7),
      /** How long a bid is held after it is made. */
      bidTtlMs: millis.default(5000),
      /**
       * The worst screening band (ADR 0030) it bids on: a ping of a lower band, or with none, gets no bid.
       * Left out, it bids whatever the band.
       */
      minQualityBand: ScreeningBandSchema.optional(),
    })
    .strict()
    .refine((b) => b.bidMin <= b.bidMax, { message: 'bidMin must not exceed bidMax', path: ['bidMin'] }),
]);
export type SandboxBuyer = z.infer<typeof SandboxBuyerSchema>;
export type SandboxBuyerInput = z.input<typeof SandboxBuyerSchema>;

const count = z.number().int().nonnegative();

/** One simulated buyer's counters since start or the last reset. */
export const SandboxBuyerStatsSchema = z.object({
  id: z.string(),
  protocol: z.enum(['lead-service', 'sync-post', 'ping-post']),
  /** Requests that created an attempt (a new idempotency key). */
  attempts: count,
  /** Posts of a key already seen: answered from the first answer, never a second upstream lead. */
  replays: count,
  /** Attempts beyond one for the same lead at the same price floor: a seller repeating itself. Must be 0. */
  repeatedAttempts: count,
  sold: count,
  rejected: count,
  errors: count,
  pending: count,
  /** A buyer with returns: the returns it sent to the buyer API, and how they were answered. */
  returns: z.object({ sent: count, accepted: count, refused: count, failed: count }).optional(),
});
export type SandboxBuyerStats = z.infer<typeof SandboxBuyerStatsSchema>;
export const SandboxBuyersStatsSchema = z.object({ buyers: z.array(SandboxBuyerStatsSchema) });

/**
 * GET /buyers/{id}/_sandbox/pings of a ping-post buyer: what its pings carried since start or the last reset.
 * `withFieldsBeyondAllowList` is the proof the issue asks for: it must stay 0 (a ping carrying any field outside
 * the ping's allow-list, which holds no identifying field, is counted whether or not it parses).
 */
export const SandboxPingRecordingSchema = z.object({
  pings: count,
  /** Pings of an id already answered: the first answer again, never a second bid. */
  replays: count,
  bids: count,
  noBids: count,
  /** Pings refused for their shape (answered 400). */
  invalid: count,
  withFieldsBeyondAllowList: count,
  /** The names found beyond the allow-list, sorted; empty when the count is 0. */
  fieldsBeyondAllowList: z.array(z.string()),
  /** Posts refused because their pinged fields differ from what was pinged with that bid (anti-tamper). */
  tamperedPosts: count,
  /** Posts refused because their bid had expired. */
  expiredPosts: count,
});
export type SandboxPingRecording = z.infer<typeof SandboxPingRecordingSchema>;
