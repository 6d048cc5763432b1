/**
 * What the system of record lacks of decided leads' submission evidence (issue 40, point 9), counted by the
 * `evidence` and `failover` scenarios once the traffic settled: decided leads without a `submitted` event, without
 * an archived consent, and funnel leads whose archived consent is kept for less than the retention period.
 */
import type { Redis } from 'ioredis';
import { sql, type Kysely } from 'kysely';
import type { Database } from '@funnel/db/database';
import { until } from '@funnel/testing/until';

/** The apps' default CONSENT_RETENTION_DAYS: what a funnel lead's archived consent must be kept for. */
export const RETENTION_DAYS = 1826;

export interface EvidenceGaps {
  withoutSubmitted: number;
  withoutArchive: number;
  /** Funnel leads without an archived consent kept `RETENTION_DAYS`. */
  withoutFiveYears: number;
  funnelDecided: number;
}

/**
 * Waits until the lead events are drained into PostgreSQL (the stream empty and every decided lead's outcome in
 * `lead_summary`), then counts the gaps among `decided`; `funnel` says which of them came through the funnel.
 */
export async function evidenceGaps(
  db: Kysely<Database>,
  redis: Redis,
  eventStream: string,
  decided: readonly string[],
  funnel: ReadonlySet<string>,
  { timeoutMs = 90_000 } = {},
): Promise<EvidenceGaps> {
  if (decided.length === 0)
    return { withoutSubmitted: 0, withoutArchive: 0, withoutFiveYears: 0, funnelDecided: 0 };
  const ids = [...decided];
  await until(
    'the lead events drained into PostgreSQL',
    async () => {
      if ((await redis.xlen(eventStream)) > 0) return false;
      const { n } = await db
        .selectFrom('lead_summary')
        .select((eb) => eb.fn.countAll<string>().as('n'))
        .where('lead_id', 'in', ids)
        .where('outcome', 'in', ['sold', 'rejected', 'no_lender'])
        .executeTakeFirstOrThrow();
      return Number(n) >= ids.length;
    },
    { timeoutMs, intervalMs: 500 },
  ).catch(() => undefined);
  const { rows } = await sql<{
    lead_id: string;
    submitted: boolean;
    archived: boolean;
    kept_days: number | null;
  }>`
    select s.lead_id,
           exists (select 1 from lead_events e where e.lead_id = s.lead_id and e.type = 'submitted') as submitted,
           c.lead_id is not null as archived,
           extract(epoch from c.retained_until - c.consented_at) / 86400 as kept_days
    from unnest(${ids}::text[]) as s(lead_id)
    left join consent_archive c on c.lead_id = s.lead_id`.execute(db);
  const funnelRows = rows.filter((r) => funnel.has(r.lead_id));
  return {
    withoutSubmitted: rows.filter((r) => !r.submitted).length,
    withoutArchive: rows.filter((r) => !r.archived).length,
    withoutFiveYears: funnelRows.filter((r) => !r.archived || Number(r.kept_days) < RETENTION_DAYS).length,
    funnelDecided: funnelRows.length,
  };
}
