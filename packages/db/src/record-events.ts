import { sql, type Kysely, type Transaction } from 'kysely';
import type { LeadEvent } from '@funnel/contracts/lead-events';
import type { Database } from './database.js';

type Summary = Database['lead_summary'];
type SummaryPatch = Partial<Summary> & { lead_id: string };

/** The first of each lead's patches wins field by field; later ones fill only what is still empty. */
function mergePatches(patches: SummaryPatch[]): SummaryPatch[] {
  const byLead = new Map<string, SummaryPatch>();
  for (const patch of patches) {
    const current = byLead.get(patch.lead_id);
    if (!current) byLead.set(patch.lead_id, { ...patch });
    else
      for (const [key, value] of Object.entries(patch)) (current as Record<string, unknown>)[key] ??= value;
  }
  return [...byLead.values()];
}

const SUMMARY_COLUMNS = [
  'created_at',
  'source',
  'partner',
  'idempotency_key',
  'affiliate',
  'click_id',
  'utm_source',
  'campaign_type',
  'amount',
  'loan_reason',
  'state',
  'submitted_at',
  'outcome',
  'outcome_reason',
  'decided_at',
  'seconds_to_decision',
  'screening_verdict',
  'screening_score',
] as const satisfies ReadonlyArray<keyof Summary>;

/** What an event says about its lead's summary row. */
function summaryPatch(event: LeadEvent): SummaryPatch | undefined {
  const at = new Date(event.at);
  switch (event.type) {
    case 'created':
      return {
        lead_id: event.leadId,
        created_at: at,
        source: event.source,
        partner: event.partner ?? null,
        idempotency_key: event.idempotencyKey ?? null,
        affiliate: event.affiliate ?? null,
        click_id: event.clickId ?? null,
        utm_source: event.utmSource ?? null,
        campaign_type: event.campaignType ?? null,
        amount: event.amount ?? null,
        loan_reason: event.loanReason ?? null,
        state: event.state ?? null,
      };
    case 'submitted':
      return { lead_id: event.leadId, submitted_at: at, source: event.source };
    case 'outcome':
      if (event.outcome === 'pending') return undefined;
      return {
        lead_id: event.leadId,
        outcome: event.outcome,
        outcome_reason: event.reason ?? null,
        decided_at: at,
        seconds_to_decision: event.secondsToDecision ?? null,
      };
    // Returns and conversions have tables of their own, written with their event (buyer-returns.ts).
    case 'screened':
      return { lead_id: event.leadId, screening_verdict: event.verdict, screening_score: event.score };
    case 'step_completed':
    case 'buyer_attempt':
    case 'erased':
    case 'returned':
    case 'return_queued':
    case 'return_rejected':
    case 'return_reversed':
    case 'payout_reversed':
    case 'payout_restored':
    case 'converted':
    case 'delivery_attempt':
      return undefined;
  }
}

/** The SQL type of each summary column, for the arrays `unnest` takes. */
const SUMMARY_TYPES: Record<(typeof SUMMARY_COLUMNS)[number], string> = {
  created_at: 'timestamptz',
  source: 'text',
  partner: 'text',
  idempotency_key: 'text',
  affiliate: 'text',
  click_id: 'text',
  utm_source: 'text',
  campaign_type: 'text',
  amount: 'integer',
  loan_reason: 'text',
  state: 'text',
  submitted_at: 'timestamptz',
  outcome: 'text',
  outcome_reason: 'text',
  decided_at: 'timestamptz',
  seconds_to_decision: 'double precision',
  screening_verdict: 'text',
  screening_score: 'integer',
};

/** The first completion of each step of each lead in `events`, in key order. */
function stepRows(events: readonly LeadEvent[]) {
  const steps = new Map<string, { lead_id: string; step: string; completed_at: Date }>();
  for (const event of events) {
    if (event.type !== 'step_completed') continue;
    const key = `${event.leadId}:${event.step}`;
    if (!steps.has(key))
      steps.set(key, { lead_id: event.leadId, step: event.step, completed_at: new Date(event.at) });
  }
  return [...steps.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row);
}

/** The buyer attempts in `events` (the waterfall's audit trail), in key order. */
function attemptRows(events: readonly LeadEvent[]) {
  return events
    .flatMap((event) => (event.type === 'buyer_attempt' ? [event] : []))
    .sort((a, b) => (a.attemptKey < b.attemptKey ? -1 : 1));
}

/**
 * The batch as one statement: events, steps, buyer attempts and summaries, each table's rows as one array per
 * column (`unnest`), so the statement has the same parameters whatever the batch size and PostgreSQL parses and binds little
 * (bench/HISTORY.md). One statement is one transaction. Steps and summaries are written for every event of the
 * batch, not only the new ones: a step is kept once and a summary value never replaced (`coalesce`; null fills
 * nothing), so an event written again changes nothing. Answers how many events were new.
 */
function batchStatement(events: readonly LeadEvent[]) {
  const steps = stepRows(events);
  const attempts = attemptRows(events);
  const summaries = mergePatches(
    events.map(summaryPatch).filter((p): p is SummaryPatch => p !== undefined),
  ).sort((a, b) => (a.lead_id < b.lead_id ? -1 : 1));
  const summaryColumns = sql.join(SUMMARY_COLUMNS.map((c) => sql.ref(c)));
  const summaryArrays = sql.join([
    sql`${summaries.map((r) => r.lead_id)}::text[]`,
    ...SUMMARY_COLUMNS.map((c) => sql`${summaries.map((r) => r[c] ?? null)}::${sql.raw(SUMMARY_TYPES[c])}[]`),
  ]);
  const keepFirst = sql.join(
    SUMMARY_COLUMNS.map(
      (c) => sql`${sql.ref(c)} = coalesce(lead_summary.${sql.ref(c)}, excluded.${sql.ref(c)})`,
    ),
  );
  return sql<{ written: string }>`
    with new_events as (
      insert into lead_events (event_id, lead_id, type, at, data)
      select * from unnest(${events.map((e) => e.eventId)}::text[], ${events.map((e) => e.leadId)}::text[],
                           ${events.map((e) => e.type)}::text[], ${events.map((e) => new Date(e.at))}::timestamptz[],
                           ${events.map(({ eventId: _id, leadId: _lead, type: _type, at: _at, ...data }) => JSON.stringify(data))}::jsonb[])
      on conflict (event_id) do nothing
      returning 1
    ), new_steps as (
      insert into lead_steps (lead_id, step, completed_at)
      select * from unnest(${steps.map((r) => r.lead_id)}::text[], ${steps.map((r) => r.step)}::text[],
                           ${steps.map((r) => r.completed_at)}::timestamptz[])
      on conflict (lead_id, step) do nothing
    ), new_attempts as (
      insert into buyer_attempts (attempt_key, lead_id, step, buyer, tier, floor, result, price, latency_ms,
                                  field_errors, at)
      select * from unnest(${attempts.map((r) => r.attemptKey)}::text[], ${attempts.map((r) => r.leadId)}::text[],
                           ${attempts.map((r) => r.step)}::integer[], ${attempts.map((r) => r.buyer)}::text[],
                           ${attempts.map((r) => r.tier)}::integer[], ${attempts.map((r) => r.floor ?? null)}::numeric[],
                           ${attempts.map((r) => r.result)}::text[], ${attempts.map((r) => r.price ?? null)}::numeric[],
                           ${attempts.map((r) => r.latencyMs)}::integer[],
                           ${attempts.map((r) => JSON.stringify(r.fieldErrors))}::jsonb[],
                           ${attempts.map((r) => new Date(r.at))}::timestamptz[])
      on conflict (attempt_key) do nothing
    ), summaries as (
      insert into lead_summary (lead_id, ${summaryColumns})
      select * from unnest(${summaryArrays})
      on conflict (lead_id) do update set ${keepFirst}
    )
    select count(*) as written from new_events`;
}

/**
 * Writes `events` and what they say about each lead's summary, at once, idempotently: an event id already
 * recorded (a batch read again after a crash) changes nothing. Answers how many events were new.
 */
export async function recordEvents(
  db: Kysely<Database>,
  events: readonly LeadEvent[],
  /** More to write in the same transaction (the consent archive). */
  alsoInTransaction?: (trx: Transaction<Database>) => Promise<void>,
): Promise<number> {
  if (events.length === 0) return 0;
  // In key order in every table, so concurrent batches take their row locks in the same order.
  const unique = [...new Map(events.map((e) => [e.eventId, e])).values()].sort((a, b) =>
    a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0,
  );
  const statement = batchStatement(unique);
  const { rows } = alsoInTransaction
    ? await db.transaction().execute(async (trx) => {
        await alsoInTransaction(trx);
        return statement.execute(trx);
      })
    : await statement.execute(db);
  return Number(rows[0]!.written);
}
