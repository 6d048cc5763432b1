import { type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// The operator's lead search (issue 33): a partner lead by its partner and idempotency key, any lead by click id.
export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('lead_summary')
      .addColumn('partner', 'text')
      .addColumn('idempotency_key', 'text')
      .addColumn('click_id', 'text')
      .execute();
    await db.schema
      .createIndex('lead_summary_partner_key')
      .on('lead_summary')
      .columns(['partner', 'idempotency_key'])
      .execute();
    await db.schema.createIndex('lead_summary_click').on('lead_summary').column('click_id').execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema
      .alterTable('lead_summary')
      .dropColumn('partner')
      .dropColumn('idempotency_key')
      .dropColumn('click_id')
      .execute();
  },
} satisfies Migration;
