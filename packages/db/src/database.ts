import { Kysely, PostgresDialect, sql, type Generated } from 'kysely';
import { Migrator, type Migration } from 'kysely/migration';
import pg from 'pg';
import { OPERATOR_MIGRATIONS, type OperatorTables } from './operator-schema.js';

/** The tables of the system of record (migrations below; the operators' in operator-schema.ts). */
export interface Database extends OperatorTables {
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
    affiliate: string | null;
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
  };
  lead_steps: {
    lead_id: string;
    step: string;
    completed_at: Date;
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

/**
 * The schema, one migration per change; applied in order at start by Kysely's migrator (it records what ran in
 * `kysely_migration` and takes a lock, so instances starting together apply each once).
 */
const MIGRATIONS: Record<string, Migration> = {
  '0001_lead_events_and_summary': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('lead_events')
        .addColumn('event_id', 'text', (c) => c.primaryKey())
        .addColumn('lead_id', 'text', (c) => c.notNull())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('at', 'timestamptz', (c) => c.notNull())
        .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .execute();
      await db.schema.createIndex('lead_events_lead').on('lead_events').column('lead_id').execute();
      await db.schema
        .createTable('lead_summary')
        .addColumn('lead_id', 'text', (c) => c.primaryKey())
        .addColumn('created_at', 'timestamptz')
        .addColumn('source', 'text')
        .addColumn('affiliate', 'text')
        .addColumn('utm_source', 'text')
        .addColumn('campaign_type', 'text')
        .addColumn('amount', 'integer')
        .addColumn('loan_reason', 'text')
        .addColumn('state', 'text')
        .addColumn('submitted_at', 'timestamptz')
        .addColumn('outcome', 'text')
        .addColumn('outcome_reason', 'text')
        .addColumn('decided_at', 'timestamptz')
        .addColumn('seconds_to_decision', 'double precision')
        .execute();
      await db.schema
        .createIndex('lead_summary_created')
        .on('lead_summary')
        .columns(['created_at', 'affiliate'])
        .execute();
      await db.schema
        .createTable('lead_steps')
        .addColumn('lead_id', 'text', (c) => c.notNull())
        .addColumn('step', 'text', (c) => c.notNull())
        .addColumn('completed_at', 'timestamptz', (c) => c.notNull())
        .addPrimaryKeyConstraint('lead_steps_pk', ['lead_id', 'step'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('lead_steps').execute();
      await db.schema.dropTable('lead_summary').execute();
      await db.schema.dropTable('lead_events').execute();
    },
  },
  '0002_consent_archive': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('consent_archive')
        .addColumn('lead_id', 'text', (c) => c.primaryKey())
        .addColumn('consented_at', 'timestamptz', (c) => c.notNull())
        .addColumn('retained_until', 'timestamptz', (c) => c.notNull())
        .addColumn('record', 'jsonb', (c) => c.notNull())
        .addColumn('contact_sealed', 'text', (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex('consent_archive_retained_until')
        .on('consent_archive')
        .column('retained_until')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('consent_archive').execute();
    },
  },
  '0003_privacy_requests': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('privacy_requests')
        .addColumn('request_id', 'text', (c) => c.primaryKey())
        .addColumn('type', 'text', (c) => c.notNull())
        .addColumn('source', 'text', (c) => c.notNull())
        .addColumn('at', 'timestamptz', (c) => c.notNull())
        .addColumn('lead_id', 'text')
        .addColumn('contact_hashes', sql`text[]`, (c) => c.notNull().defaultTo(sql`'{}'`))
        .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .addColumn('request_sealed', 'text')
        .addColumn('erased_at', 'timestamptz')
        .execute();
      await db.schema.createIndex('privacy_requests_at').on('privacy_requests').column('at').execute();
      // Erasure finds a person's requests by the hashes of their email and phone.
      await db.schema
        .createIndex('privacy_requests_contact')
        .on('privacy_requests')
        .using('gin')
        .column('contact_hashes')
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('privacy_requests').execute();
    },
  },
  '0004_buyer_attempts': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('buyer_attempts')
        .addColumn('attempt_key', 'text', (c) => c.primaryKey())
        .addColumn('lead_id', 'text', (c) => c.notNull())
        .addColumn('step', 'integer', (c) => c.notNull())
        .addColumn('buyer', 'text', (c) => c.notNull())
        .addColumn('tier', 'integer', (c) => c.notNull())
        .addColumn('floor', sql`numeric(12, 2)`)
        .addColumn('result', 'text', (c) => c.notNull())
        .addColumn('price', sql`numeric(12, 2)`)
        .addColumn('latency_ms', 'integer', (c) => c.notNull())
        .addColumn('field_errors', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
        .addColumn('at', 'timestamptz', (c) => c.notNull())
        .execute();
      await db.schema.createIndex('buyer_attempts_lead').on('buyer_attempts').column('lead_id').execute();
      await db.schema
        .createIndex('buyer_attempts_buyer')
        .on('buyer_attempts')
        .columns(['buyer', 'at'])
        .execute();
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('buyer_attempts').execute();
    },
  },
  ...OPERATOR_MIGRATIONS,
};

export interface OpenDatabaseOptions {
  url: string;
  /** A schema of its own (tests): created when missing, and every query runs in it. */
  schema?: string;
  /** Connections in the pool. */
  max?: number;
}

/** Connects to PostgreSQL at `url` (no query is run until one is needed). */
export function openDatabase(options: OpenDatabaseOptions): Kysely<Database> {
  const pool = new pg.Pool({
    connectionString: options.url,
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
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => MIGRATIONS },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  if (error) throw error instanceof Error ? error : new Error(String(error));
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}
