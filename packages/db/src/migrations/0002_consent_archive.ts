import { type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export default {
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
} satisfies Migration;
