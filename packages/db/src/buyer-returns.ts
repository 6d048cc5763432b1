import { sql, type Kysely, type RawBuilder, type Transaction } from 'kysely';
import type { BuyerReturn, BuyerReturnRequest, ReturnStatus } from '@funnel/contracts/buyer-api';
import { capTerms, isAutoApproved, type ReturnPolicy } from '@funnel/contracts/buyers';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import {
  newId,
  underBuyerKey,
  type BuyerRequestKey,
  type BuyerRequestRefusal,
  type BuyerRequestResult,
  type Sale,
} from './buyer-requests.js';
import type { Database } from './database.js';
import { recordEvents } from './record-events.js';

/**
 * Buyers' returns (ADR 0020, "Returns and conversions"): filed under the buyer's lock and idempotency key
 * (buyer-requests.ts), refused outside the buyer's window or over its cap, approved by its rule or queued for an
 * operator; each with its event.
 */

/** The first day of the calendar `period` holding `at` in `timeZone`, as SQL over a timestamptz. */
function periodStart(period: ReturnPolicy['cap']['period'], at: RawBuilder<unknown>, timeZone: string) {
  return sql`date_trunc(${period}, ${at} at time zone ${timeZone})`;
}

/**
 * The returns a cap allows of `sales` sales: at most `count`, and at most `percent` % of them rounded up, so a
 * buyer's first return of a period is within any cap above 0 (ADR 0024; rounded down, 10 % of one sale was none).
 */
function returnsAllowed(cap: ReturnPolicy['cap'], sales: number): number {
  // A percent with decimals can land a hair above a whole number in floating point: the epsilon keeps it on it.
  const share =
    cap.percent === undefined ? Number.POSITIVE_INFINITY : Math.ceil((sales * cap.percent) / 100 - 1e-9);
  return Math.min(cap.count ?? Number.POSITIVE_INFINITY, share);
}

/**
 * Whether one more return of `sale` stays under the buyer's cap: of the buyer's sales in the sale's calendar
 * period, fewer returned (approved or waiting; a rejected or reversed return does not count) than
 * {@link returnsAllowed}.
 */
export async function capRefusal(
  trx: Transaction<Database>,
  sale: Sale,
  cap: ReturnPolicy['cap'],
  timeZone: string,
  /** Who reads the refusal: the buyer (`you`) or an operator (the buyer by its id). */
  reader: 'buyer' | 'operator' = 'buyer',
): Promise<BuyerRequestRefusal | undefined> {
  const start = periodStart(cap.period, sql`${sale.soldAt}::timestamptz`, timeZone);
  const { rows } = await sql<{ sales: string; returns: string; period_from: string }>`
    select
      (select count(*) from buyer_attempts
        where buyer = ${sale.buyer} and result = 'sold'
          and ${periodStart(cap.period, sql.ref('at'), timeZone)} = ${start}) as sales,
      (select count(*) from sale_returns
        where buyer = ${sale.buyer} and status in ('approved', 'pending')
          and ${periodStart(cap.period, sql.ref('sold_at'), timeZone)} = ${start}) as returns,
      to_char(${start}, 'YYYY-MM-DD') as period_from`.execute(trx);
  const sales = Number(rows[0]!.sales);
  const returns = Number(rows[0]!.returns);
  const allowed = returnsAllowed(cap, sales);
  if (returns < allowed) return undefined;
  return {
    refused: 'cap_reached',
    message:
      `The return cap is reached: ${returns} of the ${sales} ${sales === 1 ? 'lead' : 'leads'} sold to ` +
      `${reader === 'buyer' ? 'you' : sale.buyer} in the ${cap.period} from ${rows[0]!.period_from} ` +
      `${returns === 1 ? 'is' : 'are'} returned already, and ${reader === 'buyer' ? 'your' : 'its'} terms allow ` +
      `${capTerms(cap)}: ${allowed} ${allowed === 1 ? 'return' : 'returns'} of these sales.`,
  };
}

function returnOf(row: {
  return_id: string;
  lead_id: string;
  attempt_key: string;
  reason: string;
  status: string;
  price: string | number;
  filed_at: Date;
  decided_at: Date | null;
}): BuyerReturn {
  return {
    returnId: row.return_id,
    leadId: row.lead_id,
    reference: row.attempt_key,
    reason: row.reason as BuyerReturn['reason'],
    status: row.status as ReturnStatus,
    price: Number(row.price),
    filedAt: row.filed_at.toISOString(),
    ...(row.decided_at ? { decidedAt: row.decided_at.toISOString() } : {}),
  };
}

/** The sale's open return (approved, pending or reversed), if any: a sale is returned once. */
export async function openReturnOf(trx: Transaction<Database>, attemptKey: string) {
  return trx
    .selectFrom('sale_returns')
    .select(['return_id', 'status'])
    .where('attempt_key', '=', attemptKey)
    .where('status', '<>', 'rejected')
    .executeTakeFirst();
}

/**
 * The `returned` event of a return taking effect (one per lead: a sale is returned once): approved by the buyer's
 * rule, or by the operator named.
 */
export function returnedEvent(
  r: { returnId: string; sale: Sale; reason: string; filedAt: Date },
  approvedBy: 'rule' | { operator: string },
  now: Date,
): LeadEvent {
  return {
    eventId: `${r.sale.leadId}.returned`,
    leadId: r.sale.leadId,
    at: now.toISOString(),
    type: 'returned',
    returnId: r.returnId,
    buyer: r.sale.buyer,
    attemptKey: r.sale.attemptKey,
    reason: r.reason as BuyerReturn['reason'],
    price: r.sale.price,
    ...(approvedBy === 'rule' ? { approvedBy } : { approvedBy: 'operator', operator: approvedBy.operator }),
    filedAt: r.filedAt.toISOString(),
  };
}

/** The sale a return row is of. */
export function saleOf(row: {
  attempt_key: string;
  lead_id: string;
  buyer: string;
  price: string | number;
  sold_at: Date;
}): Sale {
  return {
    attemptKey: row.attempt_key,
    leadId: row.lead_id,
    buyer: row.buyer,
    price: Number(row.price),
    soldAt: row.sold_at,
  };
}

export async function readReturn(trx: Transaction<Database>, returnId: string): Promise<BuyerReturn> {
  return returnOf(
    await trx
      .selectFrom('sale_returns')
      .selectAll()
      .where('return_id', '=', returnId)
      .executeTakeFirstOrThrow(),
  );
}

/**
 * A buyer returns a lead it bought: refused unless that buyer bought it, within `policy.windowDays` of the sale,
 * not returned already and under the cap; then approved by the policy's rule at once (a `returned` event, the
 * sale's revenue reversed) or queued for an operator (`return_queued`).
 */
export async function fileReturn(
  db: Kysely<Database>,
  input: BuyerRequestKey & { request: BuyerReturnRequest; policy: ReturnPolicy; timeZone: string; now: Date },
): Promise<BuyerRequestResult<BuyerReturn>> {
  const { request, policy, now } = input;
  return underBuyerKey<BuyerReturn>(
    db,
    'returns',
    input,
    readReturn,
    request.reference,
    async (trx, sale) => {
      const closes = new Date(sale.soldAt.getTime() + policy.windowDays * 86_400_000);
      if (now > closes) {
        return {
          refused: 'window_closed',
          message:
            `The return window closed at ${closes.toISOString()}: your terms take returns up to ` +
            `${policy.windowDays} days after the sale (${sale.soldAt.toISOString()}).`,
        };
      }
      const open = await openReturnOf(trx, sale.attemptKey);
      if (open) {
        return {
          refused: 'already_reported',
          message: `This sale was already returned (${open.return_id}, ${open.status}).`,
        };
      }
      const overCap = await capRefusal(trx, sale, policy.cap, input.timeZone);
      if (overCap) return overCap;

      const approved = isAutoApproved(policy, request.reason, sale.price);
      const returnId = newId('ret');
      await trx
        .insertInto('sale_returns')
        .values({
          return_id: returnId,
          lead_id: sale.leadId,
          attempt_key: sale.attemptKey,
          buyer: sale.buyer,
          reason: request.reason,
          note: request.note ?? null,
          status: approved ? 'approved' : 'pending',
          price: sale.price,
          sold_at: sale.soldAt,
          filed_at: now,
          decided_at: approved ? now : null,
          decided_by: approved ? 'rule' : null,
        })
        .execute();
      const event: LeadEvent = approved
        ? returnedEvent({ returnId, sale, reason: request.reason, filedAt: now }, 'rule', now)
        : {
            leadId: sale.leadId,
            at: now.toISOString(),
            returnId,
            buyer: sale.buyer,
            eventId: `${sale.leadId}.return_queued.${returnId}`,
            type: 'return_queued',
            attemptKey: sale.attemptKey,
            reason: request.reason,
            price: sale.price,
          };
      await recordEvents(trx, [event]);
      return { id: returnId, value: await readReturn(trx, returnId) };
    },
    now,
  );
}

/**
 * An operator's decision on a queued return: approve (a `returned` event naming `operator`, the revenue
 * reversed) or reject (`return_rejected`, the sale stands). Undefined for an unknown return; a return no longer
 * pending is answered as it stands, unchanged.
 */
export async function decideReturn(
  db: Kysely<Database>,
  returnId: string,
  decision: 'approve' | 'reject',
  now: Date,
  operator: string,
): Promise<{ decided: boolean; value: BuyerReturn } | undefined> {
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('sale_returns')
      .selectAll()
      .where('return_id', '=', returnId)
      .forUpdate()
      .executeTakeFirst();
    if (!row) return undefined;
    if (row.status !== 'pending') return { decided: false, value: returnOf(row) };
    const status = decision === 'approve' ? 'approved' : 'rejected';
    await trx
      .updateTable('sale_returns')
      .set({ status, decided_at: now, decided_by: 'operator' })
      .where('return_id', '=', returnId)
      .execute();
    await recordEvents(trx, [
      decision === 'approve'
        ? returnedEvent(
            { returnId, sale: saleOf(row), reason: row.reason, filedAt: row.filed_at },
            { operator },
            now,
          )
        : {
            leadId: row.lead_id,
            at: now.toISOString(),
            returnId,
            buyer: row.buyer,
            eventId: `${row.lead_id}.return_rejected.${returnId}`,
            type: 'return_rejected',
          },
    ]);
    return { decided: true, value: await readReturn(trx, returnId) };
  });
}

/** The returns of one status, oldest filed first, with their buyer, note and sale time, for the operator's queue. */
export async function listReturns(db: Kysely<Database>, status: ReturnStatus, limit = 200) {
  const rows = await db
    .selectFrom('sale_returns')
    .selectAll()
    .where('status', '=', status)
    .orderBy('filed_at')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    ...returnOf(row),
    buyer: row.buyer,
    ...(row.note ? { note: row.note } : {}),
    soldAt: row.sold_at.toISOString(),
    ...(row.decided_by ? { decidedBy: row.decided_by } : {}),
  }));
}
