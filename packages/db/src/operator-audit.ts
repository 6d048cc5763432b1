import { sql, type Kysely } from 'kysely';
import type { Database } from './database.js';

/** One console action, as appended. */
export interface AuditEntry {
  /** When (the server's clock); PostgreSQL's now() when absent. */
  at?: Date;
  accountId: string | null;
  actor: string;
  action: string;
  method: string;
  route: string;
  leadId?: string | undefined;
  buyer?: string | undefined;
  targetAccountId?: string | undefined;
  outcome: 'allowed' | 'denied';
  ip: string;
  details?: Record<string, unknown>;
}

export interface AuditRecord extends Omit<
  AuditEntry,
  'at' | 'leadId' | 'buyer' | 'targetAccountId' | 'details'
> {
  auditId: string;
  at: string;
  leadId: string | null;
  buyer: string | null;
  targetAccountId: string | null;
  details: Record<string, unknown>;
}

export interface AuditQuery {
  /** The account's id, or `api-token` for machine clients. */
  actor?: string | undefined;
  action?: string | undefined;
  outcome?: 'allowed' | 'denied' | undefined;
  leadId?: string | undefined;
  /** Inclusive, and exclusive: instants. */
  from?: Date | undefined;
  to?: Date | undefined;
  /**
   * Entries about a person: those whose details hold one of these keyed contact hashes (`emailHash`,
   * `phoneHash`: a lead search by email or phone, an audit search for a person).
   */
  contactHashes?: readonly string[] | undefined;
  /** Entries older than this id (the next page). */
  before?: string | undefined;
  limit: number;
}

/** Appends one entry. The table refuses UPDATE, DELETE and TRUNCATE (a trigger): nothing here changes one. */
export async function appendAudit(db: Kysely<Database>, entry: AuditEntry): Promise<void> {
  await db
    .insertInto('operator_audit')
    .values({
      ...(entry.at ? { at: entry.at } : {}),
      account_id: entry.accountId,
      actor: entry.actor,
      action: entry.action,
      method: entry.method,
      route: entry.route,
      lead_id: entry.leadId ?? null,
      buyer: entry.buyer ?? null,
      target_account_id: entry.targetAccountId ?? null,
      outcome: entry.outcome,
      ip: entry.ip,
      details: JSON.stringify(entry.details ?? {}),
    })
    .execute();
}

/** The newest entries first, filtered; `limit` at most. */
export async function readAudit(db: Kysely<Database>, query: AuditQuery): Promise<AuditRecord[]> {
  let select = db.selectFrom('operator_audit').selectAll();
  if (query.actor === 'api-token') select = select.where('account_id', 'is', null);
  else if (query.actor) select = select.where('account_id', '=', query.actor);
  if (query.action) select = select.where('action', '=', query.action);
  if (query.outcome) select = select.where('outcome', '=', query.outcome);
  if (query.leadId) select = select.where('lead_id', '=', query.leadId);
  if (query.from) select = select.where('at', '>=', query.from);
  if (query.to) select = select.where('at', '<', query.to);
  if (query.before) select = select.where('audit_id', '<', query.before);
  const hashes = query.contactHashes;
  if (hashes) {
    select = select.where((eb) =>
      hashes.length === 0
        ? eb.lit(false)
        : eb.or([
            eb(sql<string>`details->>'emailHash'`, 'in', hashes),
            eb(sql<string>`details->>'phoneHash'`, 'in', hashes),
          ]),
    );
  }
  const rows = await select.orderBy('audit_id', 'desc').limit(query.limit).execute();
  return rows.map((row) => ({
    auditId: String(row.audit_id),
    at: new Date(row.at).toISOString(),
    accountId: row.account_id,
    actor: row.actor,
    action: row.action,
    method: row.method,
    route: row.route,
    leadId: row.lead_id,
    buyer: row.buyer,
    targetAccountId: row.target_account_id,
    outcome: row.outcome,
    ip: row.ip,
    details: (row.details ?? {}) as Record<string, unknown>,
  }));
}
