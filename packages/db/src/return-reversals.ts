import { sql, type Kysely } from 'kysely';
import type { BuyerReturn } from '@funnel/contracts/buyer-api';
import type { ReturnPolicy } from '@funnel/contracts/buyers';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import { capRefusal, openReturnOf, readReturn, returnedEvent, saleOf } from './buyer-returns.js';
import type { Database } from './database.js';
import { recordEvents } from './record-events.js';

/**
 * A manager's reversal of a decided return (ADR 0021, "Reversing a return"): `approved` → `reversed` (the sale
 * stands again: its revenue counts, the return leaves the buyer's cap and record, the affiliate's payout is
 * restored by the worker) or `rejected` → `approved` (as if approved then: revenue reversed, payout reversed),
 * only while the sale's return window is open and, for an approval, under the buyer's cap. Final: a reversed
 * return is not reversed again, and its sale cannot be returned again.
 */
export type ReturnReversalResult =
  | { reversed: true; from: 'approved' | 'rejected'; value: BuyerReturn }
  | { reversed: false; message: string };

export async function reverseReturn(
  db: Kysely<Database>,
  input: {
    returnId: string;
    reason: string;
    /** The buyer's terms now (its window and cap); the buyer is read from the return. */
    policyOf: (buyer: string) => ReturnPolicy;
    timeZone: string;
    now: Date;
    /** The manager reversing it, as the audit log names them. */
    operator: string;
  },
): Promise<ReturnReversalResult | undefined> {
  const { returnId, now } = input;
  return db.transaction().execute(async (trx) => {
    const found = await trx
      .selectFrom('sale_returns')
      .select('buyer')
      .where('return_id', '=', returnId)
      .executeTakeFirst();
    if (!found) return undefined;
    // The buyer's lock, as when it files (buyer-requests.ts): an approval here and a return filed at the same
    // moment cannot pass the cap together.
    await sql`select pg_advisory_xact_lock(hashtext(${`buyer-api:${found.buyer}`}))`.execute(trx);
    const row = await trx
      .selectFrom('sale_returns')
      .selectAll()
      .where('return_id', '=', returnId)
      .forUpdate()
      .executeTakeFirstOrThrow();
    if (row.status === 'pending') {
      return {
        reversed: false,
        message: 'This return is still waiting for a decision: approve or reject it.',
      };
    }
    if (row.status === 'reversed') {
      return { reversed: false, message: 'This return was reversed already; a reversal is final.' };
    }
    const policy = input.policyOf(row.buyer);
    const closes = new Date(row.sold_at.getTime() + policy.windowDays * 86_400_000);
    if (now > closes) {
      return {
        reversed: false,
        message:
          `The return window closed at ${closes.toISOString()} (${policy.windowDays} days after the sale): ` +
          'the sale is settled, and its return can no longer be reversed.',
      };
    }
    const from = row.status as 'approved' | 'rejected';
    const sale = saleOf(row);
    if (from === 'rejected') {
      const open = await openReturnOf(trx, row.attempt_key);
      if (open) {
        return {
          reversed: false,
          message: `This sale has another return (${open.return_id}, ${open.status}); a sale is returned once.`,
        };
      }
      const overCap = await capRefusal(trx, sale, policy.cap, input.timeZone, 'operator');
      if (overCap) return { reversed: false, message: `Approving it would pass the cap. ${overCap.message}` };
    }
    const to = from === 'approved' ? 'reversed' : 'approved';
    await trx
      .updateTable('sale_returns')
      .set({ status: to, decided_at: now, decided_by: 'operator' })
      .where('return_id', '=', returnId)
      .execute();
    const events: LeadEvent[] = [
      {
        leadId: row.lead_id,
        at: now.toISOString(),
        returnId,
        buyer: row.buyer,
        eventId: `${row.lead_id}.return_reversed.${returnId}.${from}`,
        type: 'return_reversed',
        attemptKey: row.attempt_key,
        from,
        to,
        price: sale.price,
        reason: input.reason,
        operator: input.operator,
      },
    ];
    if (to === 'approved') {
      events.push(
        returnedEvent(
          { returnId, sale, reason: row.reason, filedAt: row.filed_at },
          { operator: input.operator },
          now,
        ),
      );
    }
    await recordEvents(trx, events);
    return { reversed: true, from, value: await readReturn(trx, returnId) };
  });
}

/**
 * Where the lead's return stands for the worker's payout jobs: the status of its return in effect or undone
 * (`approved`, `reversed`; a pending or rejected one reverses nothing), and whether the affiliate's payout was
 * reversed (its `payout_reversed` event was drained). Undefined when the lead has no such return.
 */
export async function returnStateOf(
  db: Kysely<Database>,
  leadId: string,
): Promise<{ status: 'approved' | 'reversed'; payoutReversed: boolean } | undefined> {
  const row = await db
    .selectFrom('sale_returns')
    .select('status')
    .where('lead_id', '=', leadId)
    .where('status', 'in', ['approved', 'reversed'])
    .executeTakeFirst();
  if (!row) return undefined;
  const reversal = await db
    .selectFrom('lead_events')
    .select('event_id')
    .where('lead_id', '=', leadId)
    .where('type', '=', 'payout_reversed')
    .executeTakeFirst();
  return { status: row.status as 'approved' | 'reversed', payoutReversed: reversal !== undefined };
}
