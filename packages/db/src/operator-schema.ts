import { sql, type Generated, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

/** The console's roles, each holding everything of the one before (docs/adr/0021-operator-accounts-and-audit.md). */
export const OPERATOR_ROLES = ['viewer', 'manager', 'admin'] as const;
export type OperatorRole = (typeof OPERATOR_ROLES)[number];

/** The operators' tables: their accounts and the append-only audit log of what they did. */
export interface OperatorTables {
  operator_accounts: {
    account_id: string;
    /** Lower case; the sign-in name. */
    email: string;
    display_name: string;
    role: OperatorRole;
    /** `scrypt$N$r$p$salt$hash`; null until the account's set-up link is used, and for OIDC-only accounts. */
    password_hash: string | null;
    /** The TOTP secret, sealed with the field-encryption key ring; null until a second factor is enrolled. */
    totp_sealed: string | null;
    /** A secret being enrolled, confirmed by a first code before it becomes `totp_sealed`. */
    totp_pending_sealed: string | null;
    /** The last TOTP time step accepted, so a code is never accepted twice. */
    totp_last_step: string | number | null;
    /** The SHA-256 of a one-time set-up link's token, and when it stops working. */
    setup_token_hash: string | null;
    setup_expires_at: Date | null;
    /** `issuer|subject` of the identity provider's user, once signed in through OIDC. */
    oidc_subject: string | null;
    created_at: Generated<Date>;
    disabled_at: Date | null;
    /** The provider's groups set the role at each sign-in: true for an account the provider created. */
    role_from_provider: Generated<boolean>;
  };
  /** A second factor's single-use recovery codes: only a hash of each, and when it was used. */
  operator_recovery_codes: {
    account_id: string;
    code_hash: string;
    used_at: Date | null;
  };
  operator_audit: {
    audit_id: Generated<string>;
    at: Generated<Date>;
    /** The account; null for a machine client on ADMIN_API_TOKEN. */
    account_id: string | null;
    /** Who, as read by a person: the account's email, or `api-token`. */
    actor: string;
    /** What: `reports.read`, `accounts.create`, `consent.reveal`, … */
    action: string;
    method: string;
    /** The route, without its query (never a value a borrower typed). */
    route: string;
    lead_id: string | null;
    buyer: string | null;
    /** The account acted on, for account actions. */
    target_account_id: string | null;
    /**
     * `allowed` (written before the action runs: no entry, no action) or `denied` (the role does not allow it, or
     * a sign-in failed).
     */
    outcome: 'allowed' | 'denied';
    /** The client's address as the BFF sees it (TRUST_PROXY). */
    ip: string;
    /** Filters and the reason given, never personal data. */
    details: unknown;
  };
}

/**
 * The operators' migrations, applied after the lead tables' (database.ts). Numbered 0007: 0005 (returns and
 * conversions) and 0006 (the lead search) were built beside this change, and Kysely applies migrations in name
 * order.
 */
export const OPERATOR_MIGRATIONS: Record<string, Migration> = {
  '0007_operator_accounts_and_audit': {
    async up(db: Kysely<unknown>) {
      await db.schema
        .createTable('operator_accounts')
        .addColumn('account_id', 'text', (c) => c.primaryKey())
        .addColumn('email', 'text', (c) => c.notNull().unique())
        .addColumn('display_name', 'text', (c) => c.notNull())
        .addColumn('role', 'text', (c) => c.notNull().check(sql`role in ('viewer', 'manager', 'admin')`))
        .addColumn('password_hash', 'text')
        .addColumn('totp_sealed', 'text')
        .addColumn('totp_pending_sealed', 'text')
        .addColumn('totp_last_step', 'bigint')
        .addColumn('setup_token_hash', 'text', (c) => c.unique())
        .addColumn('setup_expires_at', 'timestamptz')
        .addColumn('oidc_subject', 'text', (c) => c.unique())
        .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('disabled_at', 'timestamptz')
        .execute();
      await db.schema
        .createTable('operator_audit')
        .addColumn('audit_id', 'bigserial', (c) => c.primaryKey())
        .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
        .addColumn('account_id', 'text')
        .addColumn('actor', 'text', (c) => c.notNull())
        .addColumn('action', 'text', (c) => c.notNull())
        .addColumn('method', 'text', (c) => c.notNull())
        .addColumn('route', 'text', (c) => c.notNull())
        .addColumn('lead_id', 'text')
        .addColumn('buyer', 'text')
        .addColumn('target_account_id', 'text')
        .addColumn('outcome', 'text', (c) => c.notNull().check(sql`outcome in ('allowed', 'denied')`))
        .addColumn('ip', 'text', (c) => c.notNull())
        .addColumn('details', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
        .execute();
      await db.schema.createIndex('operator_audit_at').on('operator_audit').column('at').execute();
      await db.schema
        .createIndex('operator_audit_account')
        .on('operator_audit')
        .columns(['account_id', 'at'])
        .execute();
      // Append-only: whatever role the product connects as, PostgreSQL refuses to change or remove a row.
      await sql`
        create function operator_audit_append_only() returns trigger language plpgsql as $$
        begin
          raise exception 'operator_audit is append-only: % refused', tg_op;
        end $$`.execute(db);
      await sql`
        create trigger operator_audit_append_only before update or delete on operator_audit
        for each row execute function operator_audit_append_only()`.execute(db);
      await sql`
        create trigger operator_audit_no_truncate before truncate on operator_audit
        for each statement execute function operator_audit_append_only()`.execute(db);
    },
    async down(db: Kysely<unknown>) {
      await db.schema.dropTable('operator_audit').execute();
      await sql`drop function operator_audit_append_only()`.execute(db);
      await db.schema.dropTable('operator_accounts').execute();
    },
  },
};
