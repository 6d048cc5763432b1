import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Buyers managed live (issue 33, ADR 0022): every version of the buyers document, who made it and when; the
// newest is the one the workers run. Numbered 0008: the operators' tables are 0007 (operator-schema.ts).
export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('buyer_config_versions')
      .addColumn('version', 'integer', (c) => c.primaryKey())
      // The version as fixed-width text: the sealed credentials' associated data, and the key re-sealing pages by.
      .addColumn('version_id', 'text', (c) => c.notNull().unique())
      .addColumn('at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .addColumn('account_id', 'text')
      .addColumn('actor', 'text', (c) => c.notNull())
      .addColumn('action', 'text', (c) => c.notNull())
      .addColumn('summary', 'text', (c) => c.notNull())
      .addColumn('document', 'jsonb', (c) => c.notNull())
      .addColumn('credentials_sealed', 'text')
      .addColumn('paused', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('buyer_config_versions').execute();
  },
} satisfies Migration;
