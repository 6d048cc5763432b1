import { sql, type Kysely } from 'kysely';
import type { ContactSealer } from './consent-archive.js';
import type { Database } from './database.js';

/** One privacy request as the log keeps it (the suppression list's stream entry, split by what names someone). */
export interface LoggedPrivacyRequest {
  requestId: string;
  type: string;
  source: string;
  /** ISO 8601. */
  at: string;
  leadId?: string | undefined;
  /** `email:<hmac>` / `phone:<hmac>` of the contact it is about. */
  contactHashes: readonly string[];
  /** What names nobody (reason, state of residence, erasure counts): kept for good. */
  details: Record<string, unknown>;
  /** The request as sent, when it names the person: stored sealed, erased by a later deletion request. */
  request?: Record<string, unknown> | undefined;
}

/** A logged request read back, its request opened (undefined once erased or when it named nobody). */
export type PrivacyRequestRecord = Omit<LoggedPrivacyRequest, 'contactHashes'> & { erasedAt?: string };

/** Serializes the writers of the log, so an erasure and the requests it covers never miss each other. */
const LOG_LOCK = 0x70726976;

/**
 * Writes privacy requests to the log, at least once (a request id is written once), in one transaction; answers
 * how many were new. A deletion request erases the sealed request of every earlier request of its contact, in
 * whichever order the two arrive: each batch, under one lock, erases what its new rows make erasable.
 */
export async function logPrivacyRequests(
  db: Kysely<Database>,
  requests: readonly LoggedPrivacyRequest[],
  sealer: ContactSealer,
): Promise<number> {
  if (requests.length === 0) return 0;
  return db.transaction().execute(async (trx) => {
    await sql`select pg_advisory_xact_lock(${LOG_LOCK})`.execute(trx);
    const inserted = await trx
      .insertInto('privacy_requests')
      .values(
        requests.map((r) => ({
          request_id: r.requestId,
          type: r.type,
          source: r.source,
          at: new Date(r.at),
          lead_id: r.leadId ?? null,
          contact_hashes: [...r.contactHashes],
          details: JSON.stringify(r.details),
          request_sealed: r.request ? sealer.seal(JSON.stringify(r.request), r.requestId) : null,
        })),
      )
      .onConflict((oc) => oc.column('request_id').doNothing())
      .returning('request_id')
      .execute();
    const ids = inserted.map((row) => row.request_id);
    if (ids.length > 0) await eraseCovered(trx, ids);
    return ids.length;
  });
}

/** Erases the sealed request of every request made before a deletion request of the same contact. */
async function eraseCovered(db: Kysely<Database>, newIds: readonly string[]): Promise<void> {
  await sql`
    update privacy_requests r set request_sealed = null, erased_at = d.at
    from privacy_requests d
    where d.type = 'deletion' and r.type <> 'deletion' and r.request_sealed is not null
      and r.contact_hashes && d.contact_hashes and r.at <= d.at
      and (r.request_id = any(${newIds}::text[]) or d.request_id = any(${newIds}::text[]))`.execute(db);
}

/** The requests made in [from, to), oldest first, their requests opened. */
export async function listPrivacyRequests(
  db: Kysely<Database>,
  range: { from: Date; to: Date; limit: number },
  sealer: ContactSealer,
): Promise<PrivacyRequestRecord[]> {
  const rows = await db
    .selectFrom('privacy_requests')
    .selectAll()
    .where('at', '>=', range.from)
    .where('at', '<', range.to)
    .orderBy('at')
    .orderBy('request_id')
    .limit(range.limit)
    .execute();
  return rows.map((row) => ({
    requestId: row.request_id,
    type: row.type,
    source: row.source,
    at: row.at.toISOString(),
    ...(row.lead_id ? { leadId: row.lead_id } : {}),
    details: row.details as Record<string, unknown>,
    ...(row.request_sealed
      ? { request: JSON.parse(sealer.open(row.request_sealed, row.request_id)) as Record<string, unknown> }
      : {}),
    ...(row.erased_at ? { erasedAt: row.erased_at.toISOString() } : {}),
  }));
}
