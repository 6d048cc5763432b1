import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('sale_returns')
      .addColumn('return_id', 'text', (c) => c.primaryKey())
      .addColumn('lead_id', 'text', (c) => c.notNull())
      .addColumn('attempt_key', 'text', (c) => c.notNull())
      .addColumn('buyer', 'text', (c) => c.notNull())
      .addColumn('reason', 'text', (c) => c.notNull())
      .addColumn('note', 'text')
      .addColumn('status', 'text', (c) => c.notNull())
      .addColumn('price', sql`numeric(12, 2)`, (c) => c.notNull())
      .addColumn('sold_at', 'timestamptz', (c) => c.notNull())
      .addColumn('filed_at', 'timestamptz', (c) => c.notNull())
      .addColumn('decided_at', 'timestamptz')
      .addColumn('decided_by', 'text')
      .execute();
    // A sale is returned at most once; a refused return leaves room for another.
    await db.schema
      .createIndex('sale_returns_open')
      .on('sale_returns')
      .column('attempt_key')
      .unique()
      .where(sql.ref('status'), '<>', 'rejected')
      .execute();
    await db.schema
      .createIndex('sale_returns_buyer')
      .on('sale_returns')
      .columns(['buyer', 'sold_at'])
      .execute();
    await db.schema
      .createIndex('sale_returns_status')
      .on('sale_returns')
      .columns(['status', 'filed_at'])
      .execute();
    await db.schema
      .createTable('sale_conversions')
      .addColumn('conversion_id', 'text', (c) => c.primaryKey())
      .addColumn('lead_id', 'text', (c) => c.notNull())
      .addColumn('attempt_key', 'text', (c) => c.notNull().unique())
      .addColumn('buyer', 'text', (c) => c.notNull())
      .addColumn('funded', 'boolean', (c) => c.notNull())
      .addColumn('amount', sql`numeric(12, 2)`)
      .addColumn('recorded_at', 'timestamptz', (c) => c.notNull())
      .execute();
    await db.schema
      .createTable('buyer_api_requests')
      .addColumn('buyer', 'text', (c) => c.notNull())
      .addColumn('kind', 'text', (c) => c.notNull())
      .addColumn('key_hash', 'text', (c) => c.notNull())
      .addColumn('fingerprint', 'text', (c) => c.notNull())
      .addColumn('created_id', 'text', (c) => c.notNull())
      .addColumn('at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('buyer_api_requests_pk', ['buyer', 'kind', 'key_hash'])
      .execute();
    // The revenue reports find a lead's payout reversal by its type.
    await db.schema.createIndex('lead_events_type').on('lead_events').columns(['type', 'lead_id']).execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('lead_events_type').execute();
    await db.schema.dropTable('buyer_api_requests').execute();
    await db.schema.dropTable('sale_conversions').execute();
    await db.schema.dropTable('sale_returns').execute();
  },
} satisfies Migration;
