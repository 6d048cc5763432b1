import type { Kysely } from 'kysely';
import type { Migration } from 'kysely/migration';

// Screening's verdict in the lead summary (issue 41, ADR 0030): an operator finds the blocked and flagged leads.
export default {
  async up(db: Kysely<unknown>) {
    await db.schema
      .alterTable('lead_summary')
      .addColumn('screening_verdict', 'text')
      .addColumn('screening_score', 'integer')
      .execute();
    await db.schema
      .createIndex('lead_summary_screening_verdict')
      .on('lead_summary')
      .columns(['screening_verdict', 'created_at'])
      .execute();
  },
  async down(db: Kysely<unknown>) {
    await db.schema.dropIndex('lead_summary_screening_verdict').execute();
    await db.schema
      .alterTable('lead_summary')
      .dropColumn('screening_verdict')
      .dropColumn('screening_score')
      .execute();
  },
} satisfies Migration;
