import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// A buyer's credential is bound to its address (issue 40, ADR 0024): moving a buyer to another origin drops its
// credential, and the buyer is held until an admin enters one again. Kept beside `paused`, not in the document,
// so the export stays the buyers file's format.
export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('buyer_config_versions')
      .addColumn('keys_needed', 'jsonb', (c) => c.notNull().defaultTo(sql`'[]'::jsonb`))
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.alterTable('buyer_config_versions').dropColumn('keys_needed').execute();
  },
} satisfies Migration;
