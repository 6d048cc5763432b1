import type { Kysely } from 'kysely';
import type { Database } from './database.js';

/** A buyer that received a lead, and the keys of our attempts at it. */
export interface OptOutRecipient {
  buyer: string;
  attemptKeys: string[];
}

/**
 * Who must hear of a lead's opt-out (issue 41): every buyer with an attempt at it that may have reached it (a
 * capped attempt never left us), and whether the system of record has the lead's outcome yet (`decided`): until
 * it has, the attempts recorded may not be all of them.
 */
export async function optOutRecipients(
  db: Kysely<Database>,
  leadId: string,
): Promise<{ decided: boolean; recipients: OptOutRecipient[] }> {
  const [summary, attempts] = await Promise.all([
    db.selectFrom('lead_summary').select('outcome').where('lead_id', '=', leadId).executeTakeFirst(),
    db
      .selectFrom('buyer_attempts')
      .select(['buyer', 'attempt_key'])
      .where('lead_id', '=', leadId)
      .where('result', '<>', 'capped')
      .orderBy('step')
      .execute(),
  ]);
  const byBuyer = new Map<string, string[]>();
  for (const { buyer, attempt_key } of attempts)
    byBuyer.set(buyer, [...(byBuyer.get(buyer) ?? []), attempt_key]);
  return {
    decided: summary?.outcome != null,
    recipients: [...byBuyer].map(([buyer, attemptKeys]) => ({ buyer, attemptKeys })),
  };
}
