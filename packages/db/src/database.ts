import { Kysely, PostgresDialect, sql, type Generated } from 'kysely';
import { Migrator } from 'kysely/migration';
import pg from 'pg';
import { MIGRATIONS } from './migrations/index.js';
import type { OperatorTables } from './operator-schema.js';

/** The tables of the system of record (migrations below; the operators' in operator-schema.ts). */
export interface Database extends OperatorTables {
  /** The federal Do Not Call registry's numbers, 10 digits each (migration 0012, do-not-call.ts). */
  do_not_call_numbers: { phone: string };
  /** Each load of the registry: when, from which file, how many area codes and numbers it held. */
  do_not_call_loads: {
    load_id: Generated<number>;
    loaded_at: Date;
    file_name: string;
    area_codes: number;
    numbers: string;
  };
  lead_events: {
    event_id: string;
    lead_id: string;
    type: string;
    at: Date;
    data: unknown;
    recorded_at: Generated<Date>;
  };
  lead_summary: {
    lead_id: string;
    created_at: Date | null;
    source: string | null;
    /** A partner lead's partner id and the Idempotency-Key it was posted with (migration 0005). */
    partner: string | null;
    idempotency_key: string | null;
    affiliate: string | null;
    click_id: string | null;
    utm_source: string | null;
    campaign_type: string | null;
    amount: number | null;
    loan_reason: string | null;
    state: string | null;
    submitted_at: Date | null;
    outcome: string | null;
    outcome_reason: string | null;
    decided_at: Date | null;
    seconds_to_decision: number | null;
    /** Screening's verdict and score (migration 0013); null for a lead not screened (yet). */
    screening_verdict: string | null;
    screening_score: number | null;
  };
  lead_steps: {
    lead_id: string;
    step: string;
    completed_at: Date;
  };
  /** Every version of the buyers document (ADR 0022); the newest is the one the workers run. */
  buyer_config_versions: {
    version: number;
    /** `version` zero-padded to 10 digits: the sealed credentials' associated data (re-sealed by reseal.ts). */
    version_id: string;
    at: Generated<Date>;
    /** The operator's account; null for ADMIN_API_TOKEN and for the import at first start. */
    account_id: string | null;
    /** Who, as read by a person: the account's email, `api-token` or `buyers-file`. */
    actor: string;
    /** import | create | update | pause | resume */
    action: string;
    summary: string;
    /** The buyers file (BuyersFileSchema's output) without its credentials. */
    document: unknown;
    /** `{ buyerId: apiKey }` as JSON sealed with the field-encryption key ring; null when no buyer has one. */
    credentials_sealed: string | null;
    /** The ids of the buyers paused in this version. */
    paused: unknown;
    /** The ids of the buyers whose credential was dropped with a move to another origin (ADR 0024). */
    keys_needed: Generated<unknown>;
  };
  /** Every attempt of the buyers' waterfall (issue 13), one row per attempt key. */
  buyer_attempts: {
    attempt_key: string;
    lead_id: string;
    step: number;
    buyer: string;
    tier: number;
    /** The price floor posted; null for a protocol without prices. Numeric: read back as a string. */
    floor: string | number | null;
    result: string;
    price: string | number | null;
    latency_ms: number;
    /** The buyer's field errors in our field names, never the values. */
    field_errors: unknown;
    at: Date;
  };
  /** Buyers' returns of sales (ADR 0020, "Returns and conversions"), one row per return filed. */
  sale_returns: {
    return_id: string;
    lead_id: string;
    attempt_key: string;
    buyer: string;
    reason: string;
    note: string | null;
    /** approved | pending | rejected */
    status: string;
    price: string | number;
    sold_at: Date;
    filed_at: Date;
    decided_at: Date | null;
    /** rule | operator */
    decided_by: string | null;
  };
  /** Buyers' reports of what became of a sale: funded (with the amount) or not; one per sale. */
  sale_conversions: {
    conversion_id: string;
    lead_id: string;
    attempt_key: string;
    buyer: string;
    funded: boolean;
    amount: string | number | null;
    recorded_at: Date;
  };
  /** The buyer API's idempotency keys (hashed), each bound to its request body and what it created. */
  buyer_api_requests: {
    buyer: string;
    /** returns | conversions */ kind: string;
    key_hash: string;
    fingerprint: string;
    /** The return or conversion the request created. */
    created_id: string;
    at: Date;
  };
  consent_archive: {
    lead_id: string;
    consented_at: Date;
    /** Deleted by the retention job after this (consent time + CONSENT_RETENTION_DAYS). */
    retained_until: Date;
    /** The consent record without its contact: text, version, hash, button, time, IP, user agent, page, … */
    record: unknown;
    /** The name, email and phone it covers: JSON sealed with the field-encryption key ring (AES-256-GCM). */
    contact_sealed: string;
  };
  privacy_requests: {
    /** The request id the suppression list gave it (a UUID). */
    request_id: string;
    /** unsubscribe | do-not-sell | deletion */
    type: string;
    /** form | global-privacy-control | operator */
    source: string;
    at: Date;
    /** The visitor's own lead, when the request came with its session and the lead was flagged. */
    lead_id: string | null;
    /** `email:<hmac>` / `phone:<hmac>`: the keyed hashes of the contact (SUPPRESSION_HASH_SECRET). */
    contact_hashes: string[];
    /** What names nobody: the unsubscribe reason, the state of residence, or what an erasure removed. */
    details: unknown;
    /** The request as sent (it names the person): JSON sealed with the field-encryption key ring; null once erased. */
    request_sealed: string | null;
    /** When a deletion request for this contact erased `request_sealed`. */
    erased_at: Date | null;
  };
}

export interface OpenDatabaseOptions {
  url: string;
  /** The password, when it is not in the URL (`PGPASSWORD`, which may come from a file). */
  password?: string | undefined;
  /** A schema of its own (tests): created when missing, and every query runs in it. */
  schema?: string;
  /** Connections in the pool. */
  max?: number;
}

/** Connects to PostgreSQL at `url` (no query is run until one is needed). */
export function openDatabase(options: OpenDatabaseOptions): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
    ...(options.password ? { password: options.password } : {}),
    max: options.max ?? 5,
    connectionTimeoutMillis: 3000,
    ...(options.schema ? { options: `-c search_path=${options.schema}` } : {}),
  });
  // An idle client's error (PostgreSQL restarted) must not crash the process: the next query reconnects.
  pool.on('error', () => undefined);
  return new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
}

/** Applies every migration not applied yet; throws with the failing migration's error. */
export async function migrate(db: Kysely<Database>, schema?: string): Promise<string[]> {
  if (schema) await sql`create schema if not exists ${sql.id(schema)}`.execute(db);
  // Kysely looks for its own bookkeeping tables in every schema unless told which one: with a search_path in the
  // URL (a schema per test, or per deployment in one database), another schema's tables made it skip creating its
  // own, and every migration then failed. Its tables live in the schema the connection works in.
  const migrationTableSchema =
    schema ?? (await sql<{ name: string }>`select current_schema() as name`.execute(db)).rows[0]?.name;
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    ...(migrationTableSchema ? { migrationTableSchema } : {}),
  });
  // Kysely's check for its bookkeeping tables reads the catalog of every schema; a schema another process drops
  // meanwhile (tests share one server, each in a schema of its own) fails that read, and only that read: again.
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest();
    if (!error) return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
    if (attempt < 10 && isOtherSchemaGone(error, schema)) {
      await new Promise((resolve) => setTimeout(resolve, 20 * attempt));
      continue;
    }
    throw error instanceof Error ? error : new Error(String(error));
  }
}

/** PostgreSQL's `invalid_schema_name` for a schema other than `ours`: one dropped while the catalog was read. */
function isOtherSchemaGone(error: unknown, ours: string | undefined): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  return code === '3F000' && typeof message === 'string' && !(ours && message.includes(`"${ours}"`));
}
