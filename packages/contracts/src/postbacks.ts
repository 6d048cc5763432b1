/**
 * Affiliate conversion postbacks (issue 12): when a lead an affiliate sent reaches an outcome the affiliate asked
 * for (by default: sold), the worker calls the affiliate's URL once, with macros filled from the lead's
 * attribution. Never personal data: only ids the affiliate itself sent, our lead id, the outcome and a payout.
 */
import * as z from 'zod';
import type { Tracking } from './tracking.js';

/**
 * What a postback fires on: a final outcome, or `returned` (ADR 0020): the buyer returned a sold lead and the
 * affiliate's payout for it is reversed. An affiliate that lists `returned` accepts reversals.
 */
export const POSTBACK_EVENTS = ['sold', 'rejected', 'no_lender', 'returned'] as const;
export const PostbackEventSchema = z.enum(POSTBACK_EVENTS);
export type PostbackEvent = z.infer<typeof PostbackEventSchema>;

/**
 * What a postback job tells: an event above, or `return_reversed` (ADR 0021): a manager reversed the approved
 * return, so the payout taken back is paid again. An affiliate is told it exactly when it was told `returned`; it
 * is not listed in `events`.
 */
export const POSTBACK_JOB_EVENTS = [...POSTBACK_EVENTS, 'return_reversed'] as const;
export const PostbackJobEventSchema = z.enum(POSTBACK_JOB_EVENTS);
export type PostbackJobEvent = z.infer<typeof PostbackJobEventSchema>;

/** The macros a URL template may hold, and where each value comes from. */
export const POSTBACK_MACROS = [
  'click_id',
  'lead_id',
  'outcome',
  'payout',
  'sub1',
  'sub2',
  'sub3',
  'sub4',
  'sub5',
  'utm_source',
  'timestamp',
] as const;
export type PostbackMacro = (typeof POSTBACK_MACROS)[number];

const MACRO = /\{([a-z0-9_]+)\}/g;

/** One affiliate's postback: the URL template, the outcomes it fires on, and a payout per outcome. */
export const AffiliatePostbackSchema = z
  .object({
    url: z.string().min(1).max(2048),
    events: z.array(PostbackEventSchema).min(1).default(['sold']),
    payout: z.partialRecord(PostbackEventSchema, z.number().nonnegative()).default({}),
  })
  .superRefine((value, ctx) => {
    for (const [, macro] of value.url.matchAll(MACRO)) {
      if (!(POSTBACK_MACROS as readonly string[]).includes(macro!)) {
        ctx.addIssue({ code: 'custom', path: ['url'], message: `unknown macro {${macro}}` });
      }
    }
    if (!URL.canParse(fillPostbackUrl(value.url, {}))) {
      ctx.addIssue({ code: 'custom', path: ['url'], message: 'not a URL once its macros are filled' });
    }
  });
export type AffiliatePostback = z.infer<typeof AffiliatePostbackSchema>;

/** Every affiliate's postback, by affiliate id (the lead's `affiliateId`, else its `pubs`). */
export const AffiliatePostbacksSchema = z.record(z.string().min(1).max(64), AffiliatePostbackSchema);
export type AffiliatePostbacks = z.infer<typeof AffiliatePostbacksSchema>;

/**
 * The macro values of a lead's postback. The sub ids are the affiliate's own, as they arrived in the landing
 * URL: sub1 `affiliate_sub_id`, sub2 `sub_source`, sub3 `offer_id`, sub4 `ad_id`, sub5 `utm_campaign`.
 */
export function postbackValues(input: {
  leadId: string;
  tracking: Partial<Tracking>;
  event: PostbackJobEvent;
  /** A reversal's is negative: minus the payout taken back. */
  payout: number | undefined;
  at: Date;
}): Partial<Record<PostbackMacro, string>> {
  const { tracking } = input;
  return {
    click_id: tracking.clickId,
    lead_id: input.leadId,
    outcome: input.event,
    payout: input.payout === undefined ? undefined : input.payout.toFixed(2),
    sub1: tracking.affiliateSubId,
    sub2: tracking.subSource,
    sub3: tracking.offerId,
    sub4: tracking.adId,
    sub5: tracking.utmCampaign,
    utm_source: tracking.utmSource,
    timestamp: String(Math.floor(input.at.getTime() / 1000)),
  };
}

/** `template` with each macro replaced by its value, URL-encoded; a macro without a value becomes empty. */
export function fillPostbackUrl(template: string, values: Partial<Record<string, string>>): string {
  return template.replace(MACRO, (_whole, macro: string) => encodeURIComponent(values[macro] ?? ''));
}

/** One attempt at a postback, as operators read it. */
export const PostbackDeliverySchema = z.object({
  event: PostbackJobEventSchema,
  affiliate: z.string(),
  attempt: z.number().int().positive(),
  /** The affiliate's HTTP status; absent when no answer came (network error, timeout, refused address). */
  status: z.number().int().optional(),
  result: z.enum(['delivered', 'failed', 'refused']),
  /** What went wrong, without the URL (it can hold the affiliate's tokens). */
  error: z.string().max(200).optional(),
  at: z.string(),
  ms: z.number().nonnegative(),
});
export type PostbackDelivery = z.infer<typeof PostbackDeliverySchema>;

/** `GET /api/v1/admin/postbacks?leadId=`: every attempt for the lead, oldest first. */
export const PostbackLogSchema = z.object({
  leadId: z.string(),
  deliveries: z.array(PostbackDeliverySchema),
});
export type PostbackLog = z.infer<typeof PostbackLogSchema>;
