import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export default {
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
} satisfies Migration;
