import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export default {
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
} satisfies Migration;
