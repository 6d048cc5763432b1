import { type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The reconciler looks, every pass, at the leads decided within the lead's life for evidence they lack
// (docs/adr/0026): by decision time, not through every summary row.
export default {
  async up(db: Kysely<unknown>) {
    await db.schema.createIndex('lead_summary_decided').on('lead_summary').column('decided_at').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('lead_summary_decided').execute();
  },
} satisfies Migration;
