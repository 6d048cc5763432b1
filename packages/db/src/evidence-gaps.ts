import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/**
 * Decided leads the system of record holds without their submission's evidence (docs/adr/0026): no `submitted`
 * event, or no archived consent. Erased leads are left out (their consent went on purpose); so are leads decided
 * before `since`, whose Redis copy is gone and cannot be repaired from, and leads decided after `decidedBefore`,
 * whose evidence may still be on its way from Redis (the drain runs behind under load). Oldest decision first, at
 * most `limit`.
 */
export async function leadsMissingEvidence(
  db: Kysely<Database>,
  options: { since: Date; decidedBefore?: Date; limit: number },
): Promise<string[]> {
  const rows = await db
    .selectFrom('lead_summary as s')
    .select('s.lead_id')
    .where('s.outcome', 'in', ['sold', 'rejected', 'no_lender'])
    .where('s.decided_at', '>=', options.since)
    .$if(options.decidedBefore !== undefined, (qb) => qb.where('s.decided_at', '<', options.decidedBefore!))
    .where((eb) =>
      eb.or([
        eb('s.submitted_at', 'is', null),
        eb.not(
          eb.exists(
            eb
              .selectFrom('consent_archive as c')
              .select(sql.lit(1).as('one'))
              .whereRef('c.lead_id', '=', 's.lead_id'),
          ),
        ),
      ]),
    )
    .where((eb) =>
      eb.not(
        eb.exists(
          eb
            .selectFrom('lead_events as e')
            .select(sql.lit(1).as('one'))
            .whereRef('e.lead_id', '=', 's.lead_id')
            .where('e.type', '=', 'erased'),
        ),
      ),
    )
    .orderBy('s.decided_at')
    .limit(options.limit)
    .execute();
  return rows.map((row) => row.lead_id);
}
