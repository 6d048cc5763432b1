/**
 * A borrower's opt-out, told to every buyer that received their lead (issue 41): an unsubscribe (no more calls,
 * texts or email), a do-not-sell request, or an erasure on a verified deletion request. The FCC's revocation rule
 * gives a seller 10 business days to honour a revocation of consent; the notice says by when (`respondBy`).
 * It names the lead only by the references the buyer already holds, never by a person's data.
 */
import * as z from 'zod';

export const OPT_OUT_KINDS = ['unsubscribe', 'do_not_sell', 'deletion'] as const;
export const OptOutKindSchema = z.enum(OPT_OUT_KINDS);
export type OptOutKind = z.infer<typeof OptOutKindSchema>;

/** The business days a buyer has to honour an opt-out (47 CFR 64.1200(a)(10)). */
export const OPT_OUT_BUSINESS_DAYS = 10;

/** POSTed to a buyer's `optOutUrl`, signed the Standard Webhooks way with its `BUYER_WEBHOOK_SECRETS` secret. */
export const BuyerOptOutNoticeSchema = z
  .object({
    type: z.literal('opt_out'),
    kind: OptOutKindSchema,
    /** Our lead id: the reference the buyer's returns and conversions name it by. */
    reference: z.string().min(16).max(64),
    /** The keys of our attempts at this buyer (each post's idempotency key or partner lead id). */
    attemptKeys: z.array(z.string().min(1).max(200)).min(1).max(50),
    requestedAt: z.iso.datetime(),
    /** The last day (YYYY-MM-DD, UTC) by which the buyer must stop: 10 business days after the request. */
    respondBy: z.iso.date(),
  })
  .meta({ id: 'BuyerOptOutNotice' });
export type BuyerOptOutNotice = z.infer<typeof BuyerOptOutNoticeSchema>;

/**
 * The day `days` business days after `iso` (Monday to Friday; the federal holidays are not counted out, so the
 * day given is never later than the rule's).
 */
export function businessDaysAfter(iso: string, days: number): string {
  const day = new Date(`${iso.slice(0, 10)}T12:00:00Z`);
  for (let left = days; left > 0;) {
    day.setUTCDate(day.getUTCDate() + 1);
    const weekday = day.getUTCDay();
    if (weekday !== 0 && weekday !== 6) left -= 1;
  }
  return day.toISOString().slice(0, 10);
}
