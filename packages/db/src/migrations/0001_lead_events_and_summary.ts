import { sql, type Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .createTable('lead_events')
      .addColumn('event_id', 'text', (c) => c.primaryKey())
      .addColumn('lead_id', 'text', (c) => c.notNull())
      .addColumn('type', 'text', (c) => c.notNull())
      .addColumn('at', 'timestamptz', (c) => c.notNull())
      .addColumn('data', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
      .addColumn('recorded_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
      .execute();
    await db.schema.createIndex('lead_events_lead').on('lead_events').column('lead_id').execute();
    await db.schema
      .createTable('lead_summary')
      .addColumn('lead_id', 'text', (c) => c.primaryKey())
      .addColumn('created_at', 'timestamptz')
      .addColumn('source', 'text')
      .addColumn('affiliate', 'text')
      .addColumn('utm_source', 'text')
      .addColumn('campaign_type', 'text')
      .addColumn('amount', 'integer')
      .addColumn('loan_reason', 'text')
      .addColumn('state', 'text')
      .addColumn('submitted_at', 'timestamptz')
      .addColumn('outcome', 'text')
      .addColumn('outcome_reason', 'text')
      .addColumn('decided_at', 'timestamptz')
      .addColumn('seconds_to_decision', 'double precision')
      .execute();
    await db.schema
      .createIndex('lead_summary_created')
      .on('lead_summary')
      .columns(['created_at', 'affiliate'])
      .execute();
    await db.schema
      .createTable('lead_steps')
      .addColumn('lead_id', 'text', (c) => c.notNull())
      .addColumn('step', 'text', (c) => c.notNull())
      .addColumn('completed_at', 'timestamptz', (c) => c.notNull())
      .addPrimaryKeyConstraint('lead_steps_pk', ['lead_id', 'step'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropTable('lead_steps').execute();
    await db.schema.dropTable('lead_summary').execute();
    await db.schema.dropTable('lead_events').execute();
  },
} satisfies Migration;
