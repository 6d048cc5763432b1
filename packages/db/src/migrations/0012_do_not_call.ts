import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The federal Do Not Call registry as the operator last loaded it (issue 41): one row per registered number, and
// one per load, so a screen can say how old its copy is (the FTC's safe harbour wants one at most 31 days old).
export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('do_not_call_numbers')
      // The 10 digits as a number: 8 bytes a row, where the registry holds some 250 million.
      .addColumn('phone', 'bigint', (c) => c.primaryKey())
      .execute();
    await db.schema
      .createTable('do_not_call_loads')
      .addColumn('load_id', 'serial', (c) => c.primaryKey())
      .addColumn('loaded_at', 'timestamptz', (c) => c.notNull())
      .addColumn('file_name', 'text', (c) => c.notNull())
      .addColumn('area_codes', 'integer', (c) => c.notNull())
      .addColumn('numbers', 'bigint', (c) => c.notNull())
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('do_not_call_loads').execute();
    await db.schema.dropTable('do_not_call_numbers').execute();
  },
} satisfies Migration;
