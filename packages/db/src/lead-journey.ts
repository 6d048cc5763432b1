import { sql, type Kysely } from 'kysely';
import {
  LEAD_SEARCH_LIMIT,
  type JourneyEntry,
  type LeadJourney,
  type LeadSale,
  type LeadSearchQuery,
  type LeadSearchResult,
  type LeadSearchRow,
} from '@funnel/contracts/lead-journey';
import { LeadEventSchema } from '@funnel/contracts/lead-events';
import type { Outcome } from '@funnel/contracts/lead-outcome';
import { STEP_NAMES } from '@funnel/contracts/steps';
import type { Database } from './database.js';

const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** Where an entry stands among others of the same instant: a partner lead is created, answered and submitted at once. */
const LIFECYCLE: ReadonlyArray<string> = [
  'created',
  'step_completed',
  'consent',
  'submitted',
  'screened',
  'buyer_attempt',
  'outcome',
  // A return's decisions in the order they are made; a manager's reversal (ADR 0021) comes after the decision
  // it reverses, even in the same instant; a payout is changed before the affiliate is told.
  'return_queued',
  'return_rejected',
  'returned',
  'return_reversed',
  'payout_reversed',
  'payout_restored',
  'delivery_attempt',
];

function orderWithin(entry: JourneyEntry): [number, number] {
  const type = entry.kind === 'event' ? entry.event.type : entry.kind;
  const rank = LIFECYCLE.indexOf(type);
  const event = entry.kind === 'event' ? entry.event : undefined;
  const detail =
    event?.type === 'step_completed'
      ? STEP_NAMES.indexOf(event.step)
      : event?.type === 'buyer_attempt'
        ? event.step
        : event?.type === 'delivery_attempt'
          ? event.attempt
          : 0;
  return [rank === -1 ? LIFECYCLE.length : rank, detail];
}

/** Oldest first; within one instant, in the order a lead's life runs (wizard order for steps). */
function chronologically(a: JourneyEntry, b: JourneyEntry): number {
  if (a.at !== b.at) return a.at < b.at ? -1 : 1;
  const [rankA, detailA] = orderWithin(a);
  const [rankB, detailB] = orderWithin(b);
  return rankA - rankB || detailA - detailB;
}

function rowOf(summary: Database['lead_summary']): LeadSearchRow {
  return {
    leadId: summary.lead_id,
    createdAt: iso(summary.created_at),
    source: summary.source as LeadSearchRow['source'],
    partner: summary.partner,
    affiliate: summary.affiliate,
    clickId: summary.click_id,
    amount: summary.amount,
    state: summary.state,
    submittedAt: iso(summary.submitted_at),
    outcome: (summary.outcome ?? 'pending') as Outcome,
    outcomeReason: summary.outcome_reason,
    screeningVerdict: summary.screening_verdict as LeadSearchRow['screeningVerdict'],
    screeningScore: summary.screening_score,
  };
}

/**
 * The leads matching every given filter, newest first, at most {@link LEAD_SEARCH_LIMIT}. Days are calendar
 * days in `timeZone`, `to` included. An email or phone is not a column here: the caller turns it into
 * `amongLeads`, the leads the keyed-hash contact index holds for it.
 */
export async function searchLeads(
  db: Kysely<Database>,
  query: Omit<LeadSearchQuery, 'email' | 'phone'> & { amongLeads?: readonly string[] },
  timeZone: string,
): Promise<LeadSearchResult> {
  if (query.amongLeads?.length === 0) return { leads: [], more: false };
  const day = sql<string>`(lead_summary.created_at at time zone ${timeZone})::date`;
  let select = db.selectFrom('lead_summary').selectAll();
  if (query.amongLeads) select = select.where('lead_id', 'in', query.amongLeads);
  if (query.leadId) select = select.where('lead_id', '=', query.leadId);
  if (query.partner) select = select.where('partner', '=', query.partner);
  if (query.idempotencyKey) select = select.where('idempotency_key', '=', query.idempotencyKey);
  if (query.clickId) select = select.where('click_id', '=', query.clickId);
  if (query.from) select = select.where(day, '>=', sql<string>`${query.from}::date`);
  if (query.to) select = select.where(day, '<=', sql<string>`${query.to}::date`);
  if (query.affiliate) select = select.where('affiliate', '=', query.affiliate);
  if (query.source) select = select.where('source', '=', query.source);
  if (query.outcome === 'pending') select = select.where('outcome', 'is', null);
  else if (query.outcome) select = select.where('outcome', '=', query.outcome);
  if (query.screening) select = select.where('screening_verdict', '=', query.screening);
  const buyer = query.buyer;
  if (buyer) {
    select = select.where(({ exists, selectFrom }) =>
      exists(
        selectFrom('buyer_attempts')
          .select('buyer_attempts.lead_id')
          .whereRef('buyer_attempts.lead_id', '=', 'lead_summary.lead_id')
          .where('buyer_attempts.buyer', '=', buyer),
      ),
    );
  }
  const rows = await select
    .orderBy('created_at', (ob) => ob.desc().nullsLast())
    .orderBy('lead_id')
    .limit(LEAD_SEARCH_LIMIT + 1)
    .execute();
  return { leads: rows.slice(0, LEAD_SEARCH_LIMIT).map(rowOf), more: rows.length > LEAD_SEARCH_LIMIT };
}

/** Who bought the lead and for how much (its sold attempt), and whether a return of that sale is in effect. */
async function saleOf(db: Kysely<Database>, leadId: string): Promise<LeadSale | null> {
  const sold = await db
    .selectFrom('buyer_attempts')
    .select(['attempt_key', 'buyer', 'price'])
    .where('lead_id', '=', leadId)
    .where('result', '=', 'sold')
    .executeTakeFirst();
  if (!sold) return null;
  const returned = await db
    .selectFrom('sale_returns')
    .select('return_id')
    .where('attempt_key', '=', sold.attempt_key)
    .where('status', '=', 'approved')
    .executeTakeFirst();
  return { buyer: sold.buyer, price: Number(sold.price ?? 0), returned: returned !== undefined };
}

/**
 * One lead's journey: every event the system of record holds for it (steps, submission, each buyer attempt
 * with its price, latency and mapped field errors, the outcome, each attempt at its partner's webhook and its
 * affiliate's postback, and any later event such as a return), its
 * consent evidence while retained, and the privacy requests that named it; oldest first. Undefined when the
 * system of record never heard of the lead.
 */
export async function leadJourney(db: Kysely<Database>, leadId: string): Promise<LeadJourney | undefined> {
  const [summary, events, consent, requests, sale] = await Promise.all([
    db.selectFrom('lead_summary').selectAll().where('lead_id', '=', leadId).executeTakeFirst(),
    db
      .selectFrom('lead_events')
      .select(['event_id', 'type', 'at', 'data'])
      .where('lead_id', '=', leadId)
      .orderBy('at')
      .orderBy('recorded_at')
      .execute(),
    db
      .selectFrom('consent_archive')
      .select(['consented_at', 'retained_until', 'record'])
      .where('lead_id', '=', leadId)
      .executeTakeFirst(),
    db
      .selectFrom('privacy_requests')
      .select(['request_id', 'type', 'source', 'at', 'erased_at'])
      .where('lead_id', '=', leadId)
      .orderBy('at')
      .execute(),
    saleOf(db, leadId),
  ]);
  if (!summary) return undefined;

  const timeline: JourneyEntry[] = [];
  for (const row of events) {
    // An event of a kind this version does not know (a newer worker's, during a rolling deploy) is left out
    // rather than failing the whole page.
    const event = LeadEventSchema.safeParse({
      ...(row.data as object),
      eventId: row.event_id,
      leadId,
      type: row.type,
      at: row.at.toISOString(),
    });
    if (event.success) timeline.push({ kind: 'event', at: row.at.toISOString(), event: event.data });
  }
  if (consent) {
    const record = consent.record as Record<string, unknown>;
    const text = (key: string) => (typeof record[key] === 'string' ? record[key] : '');
    timeline.push({
      kind: 'consent',
      at: consent.consented_at.toISOString(),
      consent: {
        version: text('version'),
        textSha256: text('textSha256'),
        button: text('button'),
        pageUrl: text('pageUrl'),
        ...(typeof record.partnerListVersion === 'string'
          ? { partnerListVersion: record.partnerListVersion }
          : {}),
        trustedForm: typeof record.trustedFormUrl === 'string',
        retainedUntil: consent.retained_until.toISOString(),
      },
    });
  }
  for (const request of requests) {
    timeline.push({
      kind: 'privacy_request',
      at: request.at.toISOString(),
      request: {
        requestId: request.request_id,
        type: request.type,
        source: request.source,
        erasedAt: iso(request.erased_at),
      },
    });
  }
  timeline.sort(chronologically);
  const submitted = timeline.find((entry) => entry.kind === 'event' && entry.event.type === 'submitted');
  return {
    leadId,
    summary: rowOf(summary),
    sale,
    traceId:
      (submitted?.kind === 'event' && submitted.event.type === 'submitted' && submitted.event.traceId) ||
      null,
    timeline,
    erased: timeline.some((entry) => entry.kind === 'event' && entry.event.type === 'erased'),
  };
}
