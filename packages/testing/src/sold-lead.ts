import type { LeadEvent } from '@funnel/contracts/lead-events';

/**
 * A lead created and sold to `buyer` for `price` at `at`, as the system of record holds one (its `created` event
 * and its sold `buyer_attempt`, attempt key `{leadId}-0`): what a buyer's return or conversion refers to.
 */
export function soldLeadEvents(
  leadId: string,
  sale: { buyer: string; price: number; at: Date; affiliate?: string },
): LeadEvent[] {
  const at = sale.at.toISOString();
  return [
    {
      eventId: `${leadId}.created`,
      leadId,
      at,
      type: 'created',
      source: 'partner',
      ...(sale.affiliate ? { affiliate: sale.affiliate } : {}),
    },
    {
      eventId: `attempt:${leadId}-0`,
      leadId,
      at,
      type: 'buyer_attempt',
      attemptKey: `${leadId}-0`,
      step: 0,
      buyer: sale.buyer,
      tier: 1,
      result: 'sold',
      price: sale.price,
      latencyMs: 90,
      fieldErrors: [],
    },
  ];
}
