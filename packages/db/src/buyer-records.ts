import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/** A buyer's record over a rolling window, as the auction's ranking learns from it (ADR 0020). */
export interface BuyerRecordCounts {
  /** Attempts the buyer answered (sold, rejected, or refused for its fields): the posts it decided. */
  posts: number;
  /** Of those, sold. */
  accepted: number;
  /** Sales returned, or past their return window: each counts once its fate is known. */
  settledSales: number;
  /** Of those, returned. */
  returned: number;
}

export interface RecordWindow {
  /** The end of the window, ms since the epoch. */
  now: number;
  /** How far back posts count for the acceptance rate. */
  windowMs: number;
  /** How long a buyer may return a sale: a kept sale is settled only after this. */
  returnWindowMs: number;
}

/**
 * Every buyer's record, read from the attempts and the returns of the system of record. Acceptance counts the
 * answered attempts of the last `windowMs`. Returns count the sales of the last `windowMs + returnWindowMs`
 * that are settled: returned (a `returned` event of that lead from that buyer), or older than the return
 * window. The sales window reaches further back so that a buyer's rate is not read from returns alone while
 * its recent kept sales are still returnable.
 */
export async function buyerRecords(
  db: Kysely<Database>,
  window: RecordWindow,
): Promise<Map<string, BuyerRecordCounts>> {
  const now = new Date(window.now);
  const postsFrom = new Date(window.now - window.windowMs);
  const salesFrom = new Date(window.now - window.windowMs - window.returnWindowMs);
  const keptBefore = new Date(window.now - window.returnWindowMs);
  const { rows } = await sql<{
    buyer: string;
    posts: string;
    accepted: string;
    settled_sales: string;
    returned: string;
  }>`
    with sales as (
      select a.buyer, a.at,
             exists (select 1 from lead_events e
                      where e.lead_id = a.lead_id and e.type = 'returned' and e.data->>'buyer' = a.buyer
                        and e.at <= ${now}
                        -- A return a manager reversed (ADR 0021) no longer counts against the buyer.
                        and not exists (select 1 from lead_events r
                                         where r.lead_id = a.lead_id and r.type = 'return_reversed'
                                           and r.data->>'from' = 'approved' and r.at <= ${now})) as returned
        from buyer_attempts a
       where a.result = 'sold' and a.at > ${salesFrom} and a.at <= ${now}
    ), posts as (
      select buyer,
             count(*) filter (where result in ('sold', 'rejected', 'invalid')) as posts,
             count(*) filter (where result = 'sold') as accepted
        from buyer_attempts
       where at > ${postsFrom} and at <= ${now}
       group by buyer
    ), settled as (
      select buyer,
             count(*) filter (where returned or at <= ${keptBefore}) as settled_sales,
             count(*) filter (where returned) as returned
        from sales
       group by buyer
    )
    select coalesce(p.buyer, s.buyer) as buyer,
           coalesce(p.posts, 0) as posts, coalesce(p.accepted, 0) as accepted,
           coalesce(s.settled_sales, 0) as settled_sales, coalesce(s.returned, 0) as returned
      from posts p full outer join settled s on s.buyer = p.buyer`.execute(db);
  return new Map(
    rows.map((row) => [
      row.buyer,
      {
        posts: Number(row.posts),
        accepted: Number(row.accepted),
        settledSales: Number(row.settled_sales),
        returned: Number(row.returned),
      },
    ]),
  );
}
