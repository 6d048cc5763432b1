import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/** One buyer's attempts since an instant, as the console's health panel shows them (ADR 0022). */
export interface BuyerAttemptHealth {
  buyer: string;
  /** Attempts that reached the buyer (a full cap or a full bulkhead is not one). */
  attempts: number;
  sold: number;
  timeouts: number;
  errors: number;
  p95LatencyMs: number | null;
}

/** Each buyer's attempts recorded since `since`, by buyer id. */
export async function buyerAttemptHealth(
  db: Kysely<Database>,
  since: Date,
): Promise<Map<string, BuyerAttemptHealth>> {
  const rows = await db
    .selectFrom('buyer_attempts')
    .where('at', '>=', since)
    .where('result', '!=', 'capped')
    .groupBy('buyer')
    .select([
      'buyer',
      sql<number>`count(*)::int`.as('attempts'),
      sql<number>`(count(*) filter (where result = 'sold'))::int`.as('sold'),
      sql<number>`(count(*) filter (where result = 'timeout'))::int`.as('timeouts'),
      sql<number>`(count(*) filter (where result = 'error'))::int`.as('errors'),
      sql<number | null>`round(percentile_cont(0.95) within group (order by latency_ms)::numeric)::float8`.as(
        'p95',
      ),
    ])
    .execute();
  return new Map(
    rows.map((row) => [
      row.buyer,
      {
        buyer: row.buyer,
        attempts: row.attempts,
        sold: row.sold,
        timeouts: row.timeouts,
        errors: row.errors,
        p95LatencyMs: row.p95,
      },
    ]),
  );
}
