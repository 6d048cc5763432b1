/**
 * Buyers as configuration (issue 13): the buyer contracts the worker's waterfall walks, read from a JSON file
 * at start. Each buyer names the protocol adapter that speaks to it, where and how to reach it, which leads it
 * takes (filters, active hours), how many (caps), in which order (tier) and at which price floors (ladder).
 */
import * as z from 'zod';
import { ReturnReasonSchema, type ReturnReason } from './buyer-api.js';
import { CreditScoreSchema, LoanReasonSchema } from './options.js';
import { ScreeningBandSchema, ScreeningReasonSchema, type ScreeningBand } from './screening.js';

/** The protocols the worker has an adapter for. */
export const BUYER_PROTOCOLS = ['lead-service', 'sync-post', 'ping-post'] as const;
export const BuyerProtocolSchema = z.enum(BUYER_PROTOCOLS);
export type BuyerProtocol = z.infer<typeof BuyerProtocolSchema>;

/** A buyer's id: a lower-case slug, used in metrics labels, cap keys and the sandbox's paths. */
export const BuyerIdSchema = z
  .string()
  .regex(/^[a-z0-9][a-z0-9-]{0,39}$/, 'Expected a lower-case slug (a-z, 0-9, -)');

const millis = z.number().int().positive().max(600_000);

/**
 * A buyer's share of a worker process (ADR 0017): at most this many of its calls are in flight at once in one
 * worker, and its connection pool has as many connections. A lead whose next buyer has every place taken waits
 * off the worker's job slots, or moves on.
 */
export const DEFAULT_BUYER_CONCURRENCY = 16;
const hourOfDay = z.number().int().min(0).max(24);
const stateCode = z.string().regex(/^[A-Z]{2}$/, 'Expected a two-letter state code');
const dollars = z.number().min(0).max(100_000);

/** Hours of the business time zone a buyer takes leads in: from `fromHour` (inclusive) to `toHour` (exclusive). */
const ActiveHoursSchema = z
  .object({ fromHour: hourOfDay, toHour: hourOfDay })
  .strict()
  .refine((h) => h.fromHour !== h.toHour, { message: 'fromHour and toHour must differ', path: ['toHour'] });

/** Which leads a buyer takes; a filter left out takes every lead. */
export const BuyerFiltersSchema = z
  .object({
    states: z.array(stateCode).min(1).optional(),
    minAmount: z.number().int().positive().optional(),
    maxAmount: z.number().int().positive().optional(),
    minMonthlyIncome: z.number().int().nonnegative().optional(),
    creditBands: z.array(CreditScoreSchema).min(1).optional(),
    loanReasons: z.array(LoanReasonSchema).min(1).optional(),
    /** Wraps past midnight when `toHour` < `fromHour` (e.g. 20 → 6). */
    activeHours: ActiveHoursSchema.optional(),
    /**
     * Screening (ADR 0030): the lowest score this buyer takes. A lead with no verdict (screening off) has no
     * score, and a buyer who set one does not get it.
     */
    minScreeningScore: z.number().int().min(0).max(100).optional(),
    /** Screening's findings this buyer refuses, e.g. `["phone_do_not_call"]`, whatever the score. */
    refusedScreeningReasons: z.array(ScreeningReasonSchema).min(1).optional(),
    /**
     * The highest APR, in percent and all-in (fees counted, as the Military Lending Act counts it), of the loans
     * this buyer makes: a borrower in a state whose rate cap is lower (docs/state-rate-caps.md) is not offered
     * to it. Left out: the buyer's own `states` decide.
     */
    maxApr: z.number().positive().max(1000).optional(),
  })
  .strict()
  .refine((f) => f.minAmount === undefined || f.maxAmount === undefined || f.minAmount <= f.maxAmount, {
    message: 'minAmount must not exceed maxAmount',
    path: ['minAmount'],
  });
export type BuyerFilters = z.infer<typeof BuyerFiltersSchema>;

/** The calendar period a return cap counts over, in the buyers file's time zone. */
export const RETURN_CAP_PERIODS = ['day', 'week', 'month'] as const;

/**
 * Which returns are approved without an operator: those whose reason is listed and, when `maxPrice` is set,
 * whose sale was paid at most that much. Any other return is queued for an operator.
 */
const AutoApproveRuleSchema = z
  .object({ reasons: z.array(ReturnReasonSchema).min(1), maxPrice: dollars.optional() })
  .strict();

/**
 * A buyer's return terms (ADR 0020, "Returns and conversions"). `windowDays`: days after the sale a return is
 * taken. `cap`: of the sales of one calendar `period` (the sale's), at most `count` returned and at most
 * `percent` % of them (rounded up: a first return is always allowed, ADR 0024); both when both are set.
 * `autoApprove`: true (every return within the terms), false (every return queued for an operator) or a rule.
 */
export const ReturnPolicySchema = z
  .object({
    windowDays: z.number().int().min(1).max(60),
    cap: z
      .object({
        count: z.number().int().nonnegative().optional(),
        percent: z.number().min(0).max(100).optional(),
        period: z.enum(RETURN_CAP_PERIODS),
      })
      .strict()
      .refine((cap) => cap.count !== undefined || cap.percent !== undefined, {
        message: 'A cap needs a count, a percent or both',
      }),
    autoApprove: z.union([z.boolean(), AutoApproveRuleSchema]),
  })
  .strict();
export type ReturnPolicy = z.infer<typeof ReturnPolicySchema>;

/**
 * The terms of a buyer whose file sets none (ADR 0020): a week to return; at most 10 % of a month's sales; the
 * reasons a buyer can show as fact (contact, duplicate, bank account) approved at once, judgements (fraud, did
 * not apply, out of criteria, other) reviewed by an operator.
 */
export const DEFAULT_RETURN_POLICY: ReturnPolicy = {
  windowDays: 7,
  cap: { percent: 10, period: 'month' },
  autoApprove: { reasons: ['invalid_contact', 'duplicate', 'invalid_bank_account'] },
};

/** A return cap in words: `at most 5 and 10 % per month`. */
export function capTerms(cap: ReturnPolicy['cap']): string {
  const terms = [
    cap.count === undefined ? undefined : `${cap.count}`,
    cap.percent === undefined ? undefined : `${cap.percent} %`,
  ]
    .filter(Boolean)
    .join(' and ');
  return `at most ${terms} per ${cap.period}`;
}

/** A buyer's return terms: its file's, or {@link DEFAULT_RETURN_POLICY}. */
export function returnPolicyOf(buyer: Pick<Buyer, 'returns'> | undefined): ReturnPolicy {
  return buyer?.returns ?? DEFAULT_RETURN_POLICY;
}

/** Whether a return within the terms is approved at once (true) or queued for an operator (false). */
export function isAutoApproved(policy: ReturnPolicy, reason: ReturnReason, price: number): boolean {
  const rule = policy.autoApprove;
  if (typeof rule === 'boolean') return rule;
  return rule.reasons.includes(reason) && (rule.maxPrice === undefined || price <= rule.maxPrice);
}

export const BuyerSchema = z
  .object({
    id: BuyerIdSchema,
    protocol: BuyerProtocolSchema,
    baseUrl: z.url({ protocol: /^https?$/ }),
    /** Sent as a bearer token when set. */
    apiKey: z.string().min(1).optional(),
    /**
     * Where the buyer is told a borrower whose lead it received opted out or asked to be erased (issue 41):
     * signed with its `BUYER_WEBHOOK_SECRETS` secret, retried until it answers 2xx. Left out, the journey shows
     * the buyer was not told, for an operator to tell it another way.
     */
    optOutUrl: z.url({ protocol: /^https?$/ }).optional(),
    timeouts: z
      .object({
        connectMs: millis.default(3000),
        /** The longest one attempt at this buyer may take, pending included; the deadline may cut it shorter. */
        attemptMs: millis.default(30_000),
        /** lead-service: how often a pending attempt is pinged. */
        pollMs: millis.default(2000),
      })
      .strict()
      .default({ connectMs: 3000, attemptMs: 30_000, pollMs: 2000 }),
    /** Calls to this buyer in flight at once per worker process (its bulkhead, ADR 0017). */
    concurrency: z.number().int().positive().max(1000).default(DEFAULT_BUYER_CONCURRENCY),
    filters: BuyerFiltersSchema.default({}),
    caps: z
      .object({
        perHour: z.number().int().positive().optional(),
        perDay: z.number().int().positive().optional(),
      })
      .strict()
      .default({}),
    /** Lower tiers are tried first; buyers of one tier keep their order in the file. */
    tier: z.number().int().min(1).max(100),
    /**
     * sync-post: the `MinimumPrice` of each attempt, walked from the first down, e.g. [80, 50, 20, 2, 0].
     * lead-service has no price in its protocol: one attempt, paid `price`.
     */
    priceLadder: z.array(dollars).min(1).max(10).optional(),
    /** lead-service: what the contract pays for a sold lead (revenue in the reports). */
    price: dollars.optional(),
    /**
     * lead-service: what the contract pays by screening's band of the lead (ADR 0030), e.g. `{ "A": 60, "B": 45 }`;
     * a band not listed, or a lead not screened, pays `price`.
     */
    priceByBand: z.partialRecord(ScreeningBandSchema, dollars).optional(),
    /** ping-post: the deadlines of its two calls (ADR 0020); see {@link pingPostDeadlines} for the defaults. */
    pingPost: z.object({ pingMs: millis.optional(), postMs: millis.optional() }).strict().optional(),
    /** Return window, cap and approval rule; see {@link returnPolicyOf} for the defaults. */
    returns: ReturnPolicySchema.optional(),
    /** When the workers stop offering it leads after failures (ADR 0022); see {@link breakerOf} for the defaults. */
    breaker: z
      .object({
        failures: z.number().int().min(1).max(1000).optional(),
        coolDownMs: millis.optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .superRefine((buyer, ctx) => {
    if (buyer.protocol === 'sync-post') {
      if (!buyer.priceLadder) {
        ctx.addIssue({
          code: 'custom',
          path: ['priceLadder'],
          message: 'A sync-post buyer needs a price ladder',
        });
      } else if (buyer.priceLadder.some((p, i) => i > 0 && p >= buyer.priceLadder![i - 1]!)) {
        ctx.addIssue({ code: 'custom', path: ['priceLadder'], message: 'The ladder must go strictly down' });
      }
      if (buyer.price !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['price'], message: 'A sync-post buyer answers its own price' });
      }
    }
    if (buyer.protocol === 'ping-post') {
      // The bid is the price: one attempt, whose floor (when a ladder of one is given) is the least bid taken.
      if (buyer.priceLadder && buyer.priceLadder.length > 1) {
        ctx.addIssue({
          code: 'custom',
          path: ['priceLadder'],
          message: 'A ping-post buyer bids its own price: at most one floor, the least bid it is sold at',
        });
      }
      if (buyer.price !== undefined) {
        ctx.addIssue({ code: 'custom', path: ['price'], message: 'A ping-post buyer bids its own price' });
      }
    } else if (buyer.pingPost) {
      ctx.addIssue({
        code: 'custom',
        path: ['pingPost'],
        message: 'Only a ping-post buyer has ping deadlines',
      });
    }
    if (buyer.priceByBand && buyer.protocol !== 'lead-service') {
      ctx.addIssue({
        code: 'custom',
        path: ['priceByBand'],
        message: 'Only a lead-service buyer is paid a set price: the others price each lead themselves',
      });
    }
    if (buyer.protocol === 'lead-service' && buyer.priceLadder) {
      ctx.addIssue({
        code: 'custom',
        path: ['priceLadder'],
        message: 'The lead-service protocol has no price: use price instead',
      });
    }
  });
export type Buyer = z.infer<typeof BuyerSchema>;

/** What a lead-service buyer's contract pays for a lead of screening's `band` (none: not screened). */
export function contractPriceOf(buyer: Pick<Buyer, 'price' | 'priceByBand'>, band?: ScreeningBand): number {
  return (band && buyer.priceByBand?.[band]) ?? buyer.price ?? 0;
}

/**
 * A ping's deadline unless the buyer's file sets one: ActiveProspect's example budget per buyer (ADR 0020). A
 * bid that takes longer than this is worth less than the borrower's wait it costs.
 */
export const DEFAULT_PING_MS = 500;

/**
 * The deadlines of a ping-post buyer's two calls: `pingMs` (default {@link DEFAULT_PING_MS}) and `postMs`
 * (default: the buyer's `attemptMs`, as long as any post may take). The attempt's own budget may cut both shorter.
 */
export function pingPostDeadlines(buyer: Pick<Buyer, 'timeouts' | 'pingPost'>): {
  pingMs: number;
  postMs: number;
} {
  return {
    pingMs: buyer.pingPost?.pingMs ?? DEFAULT_PING_MS,
    postMs: buyer.pingPost?.postMs ?? buyer.timeouts.attemptMs,
  };
}
export type BuyerInput = z.input<typeof BuyerSchema>;

/** Consecutive failed attempts (timeouts, 5xx, no connection) that open a buyer's breaker unless its file says. */
export const DEFAULT_BREAKER_FAILURES = 5;
/** How long an open breaker skips its buyer before one trial attempt, unless its file says. */
export const DEFAULT_BREAKER_COOL_DOWN_MS = 30_000;

/** A buyer's breaker settings: its file's, or the defaults. */
export function breakerOf(buyer: Pick<Buyer, 'breaker'>): { failures: number; coolDownMs: number } {
  return {
    failures: buyer.breaker?.failures ?? DEFAULT_BREAKER_FAILURES,
    coolDownMs: buyer.breaker?.coolDownMs ?? DEFAULT_BREAKER_COOL_DOWN_MS,
  };
}

/** The whole ping round's deadline unless the file sets one: ActiveProspect's example round (ADR 0020). */
export const DEFAULT_ROUND_MS = 750;
const HOUR_MS = 3600_000;
const longMillis = z
  .number()
  .int()
  .positive()
  .max(400 * 24 * HOUR_MS);

/**
 * How a lead is offered (ADR 0020): `waterfall` walks the buyers by tier and ladder (ADR 0012, the default);
 * `auction` pings every eligible ping-post buyer at once and posts down a ranking of the bids and the
 * direct-post buyers' floors. `auction` tunes the round and the ranking; it is read only in auction mode.
 */
export const AuctionSettingsSchema = z
  .object({
    /** The ping round ends when every ping has answered, or after this long. */
    roundMs: millis.default(DEFAULT_ROUND_MS),
    /** `expected-value` (price × P(accepted) × (1 − P(returned))), or `price` (the highest bid first). */
    rankBy: z.enum(['expected-value', 'price']).default('expected-value'),
    /** The rolling window a buyer's acceptance is learned over (default 7 days). */
    windowMs: longMillis.default(7 * 24 * HOUR_MS),
    /** How long after a sale a buyer may return it: a sale is settled for the return rate after this. */
    returnWindowMs: longMillis.default(30 * 24 * HOUR_MS),
    /** How often each worker reads the buyers' records again from the system of record (default 1 min). */
    refreshMs: longMillis.default(60_000),
  })
  .strict();
export type AuctionSettings = z.infer<typeof AuctionSettingsSchema>;

export const BuyersFileSchema = z
  .object({
    /** IANA zone of the buyers' active hours and daily caps. */
    timeZone: z.string().refine(isTimeZone, 'Expected an IANA time zone, e.g. America/Chicago'),
    mode: z.enum(['waterfall', 'auction']).default('waterfall'),
    auction: AuctionSettingsSchema.default(AuctionSettingsSchema.parse({})),
    buyers: z.array(BuyerSchema).min(1),
  })
  .strict()
  .superRefine((file, ctx) => {
    const seen = new Set<string>();
    file.buyers.forEach((buyer, i) => {
      if (seen.has(buyer.id))
        ctx.addIssue({ code: 'custom', path: ['buyers', i, 'id'], message: 'Duplicate id' });
      seen.add(buyer.id);
    });
  });
export type BuyersFile = z.infer<typeof BuyersFileSchema>;

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/** Every problem of a buyers file, one line each with its path: a bad file stops start-up listing all of them. */
export function describeBuyersFileIssues(error: z.ZodError): string[] {
  return error.issues.map((issue) => `${issue.path.join('.') || '(file)'}: ${issue.message}`);
}
