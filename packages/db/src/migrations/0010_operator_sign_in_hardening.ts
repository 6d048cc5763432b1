import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Operator sign-in hardening (issue 40, ADR 0023): the ten single-use recovery codes of a second factor (only
// their hashes), and whether an account's role follows the identity provider's groups. An account the provider
// created follows them; a local account keeps the role an admin gave it (OIDC_SYNC_LOCAL_ROLES turns that off).
export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('operator_recovery_codes')
      .addColumn('account_id', 'text', (c) =>
        c.notNull().references('operator_accounts.account_id').onDelete('cascade'),
      )
      .addColumn('code_hash', 'text', (c) => c.notNull())
      .addColumn('used_at', 'timestamptz')
      .addPrimaryKeyConstraint('operator_recovery_codes_pkey', ['account_id', 'code_hash'])
      .execute();
    await db.schema
      .alterTable('operator_accounts')
      .addColumn('role_from_provider', 'boolean', (c) => c.notNull().defaultTo(false))
      .execute();
    // Before this migration only the provider created accounts without a password and with a subject.
    await sql`
      update operator_accounts set role_from_provider = true
      where oidc_subject is not null and password_hash is null and setup_token_hash is null`.execute(db);
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('operator_accounts').dropColumn('role_from_provider').execute();
    await db.schema.dropTable('operator_recovery_codes').execute();
  },
} satisfies Migration;
