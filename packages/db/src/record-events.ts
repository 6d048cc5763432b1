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
  'affiliate',
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
        affiliate: event.affiliate ?? null,
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
    case 'step_completed':
    case 'buyer_attempt':
      return undefined;
  }
}

async function upsertSummaries(trx: Transaction<Database>, patches: SummaryPatch[]): Promise<void> {
  // Rows with the same set of columns go in one statement; a value already stored is never replaced.
  const groups = new Map<string, SummaryPatch[]>();
  for (const patch of mergePatches(patches).sort((a, b) => (a.lead_id < b.lead_id ? -1 : 1))) {
    const columns = SUMMARY_COLUMNS.filter((c) => patch[c] !== undefined).join(',');
    groups.set(columns, [...(groups.get(columns) ?? []), patch]);
  }
  for (const [joined, rows] of groups) {
    const columns = joined ? (joined.split(',') as Array<(typeof SUMMARY_COLUMNS)[number]>) : [];
    await trx
      .insertInto('lead_summary')
      .values(rows as Summary[])
      .onConflict((oc) =>
        columns.length === 0
          ? oc.column('lead_id').doNothing()
          : oc
              .column('lead_id')
              .doUpdateSet(
                Object.fromEntries(
                  columns.map((c) => [c, sql`coalesce(lead_summary.${sql.ref(c)}, excluded.${sql.ref(c)})`]),
                ),
              ),
      )
      .execute();
  }
}

/**
 * Writes `events` and what they say about each lead's summary, in one transaction, idempotently: an event id
 * already recorded (a batch read again after a crash) changes nothing. Answers how many events were new.
 */
export async function recordEvents(
  db: Kysely<Database>,
  events: readonly LeadEvent[],
  /** More to write in the same transaction (the consent archive). */
  alsoInTransaction?: (trx: Transaction<Database>) => Promise<void>,
): Promise<number> {
  if (events.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    await alsoInTransaction?.(trx);
    // In key order in every table, so concurrent batches take their row locks in the same order.
    const unique = [...new Map(events.map((e) => [e.eventId, e])).values()].sort((a, b) =>
      a.eventId < b.eventId ? -1 : a.eventId > b.eventId ? 1 : 0,
    );
    const inserted = await trx
      .insertInto('lead_events')
      .values(
        unique.map(({ eventId, leadId, type, at, ...data }) => ({
          event_id: eventId,
          lead_id: leadId,
          type,
          at: new Date(at),
          data: JSON.stringify(data),
        })),
      )
      .onConflict((oc) => oc.column('event_id').doNothing())
      .returning('event_id')
      .execute();
    const fresh = new Set(inserted.map((row) => row.event_id));
    const news = unique.filter((e) => fresh.has(e.eventId));

    const steps = new Map<string, { lead_id: string; step: string; completed_at: Date }>();
    for (const event of news) {
      if (event.type !== 'step_completed') continue;
      const key = `${event.leadId}:${event.step}`;
      if (!steps.has(key))
        steps.set(key, { lead_id: event.leadId, step: event.step, completed_at: new Date(event.at) });
    }
    if (steps.size > 0) {
      await trx
        .insertInto('lead_steps')
        .values([...steps.entries()].sort(([a], [b]) => (a < b ? -1 : 1)).map(([, row]) => row))
        .onConflict((oc) => oc.columns(['lead_id', 'step']).doNothing())
        .execute();
    }
    const attempts = news.flatMap((event) =>
      event.type === 'buyer_attempt'
        ? [
            {
              attempt_key: event.attemptKey,
              lead_id: event.leadId,
              step: event.step,
              buyer: event.buyer,
              tier: event.tier,
              floor: event.floor ?? null,
              result: event.result,
              price: event.price ?? null,
              latency_ms: event.latencyMs,
              field_errors: JSON.stringify(event.fieldErrors),
              at: new Date(event.at),
            },
          ]
        : [],
    );
    if (attempts.length > 0) {
      await trx
        .insertInto('buyer_attempts')
        .values(attempts.sort((a, b) => (a.attempt_key < b.attempt_key ? -1 : 1)))
        .onConflict((oc) => oc.column('attempt_key').doNothing())
        .execute();
    }
    const patches = news.map(summaryPatch).filter((p): p is SummaryPatch => p !== undefined);
    if (patches.length > 0) await upsertSummaries(trx, patches);
    return news.length;
  });
}
