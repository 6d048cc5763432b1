import type { Kysely, Transaction } from 'kysely';
import { RetainedConsentSchema, type RetainedConsent } from '@funnel/contracts/consent';
import type { Database } from './database.js';

/** Seals and opens the contact a consent covers (the field-encryption key ring; context: the lead id). */
export interface ContactSealer {
  seal(plaintext: string, context: string): string;
  open(sealed: string, context: string): string;
}

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Archives consent records (the lead ids' retained consent as the lead store kept it), their contact sealed, for
 * `retentionDays` after the consent. A record archived before stays as it was (consent is given once).
 */
export async function archiveConsents(
  trx: Transaction<Database> | Kysely<Database>,
  consents: readonly RetainedConsent[],
  options: { sealer: ContactSealer; retentionDays: number },
): Promise<void> {
  if (consents.length === 0) return;
  await trx
    .insertInto('consent_archive')
    .values(
      [...consents]
        .sort((a, b) => (a.leadId < b.leadId ? -1 : 1))
        .map(({ contact, ip, userAgent, ...record }) => ({
          lead_id: record.leadId,
          consented_at: new Date(record.at),
          retained_until: new Date(Date.parse(record.at) + options.retentionDays * DAY_MS),
          record: JSON.stringify(record),
          // Whatever names or locates the person is sealed: the contact, the IP address and the user agent.
          contact_sealed: options.sealer.seal(JSON.stringify({ contact, ip, userAgent }), record.leadId),
        })),
    )
    .onConflict((oc) => oc.column('lead_id').doNothing())
    .execute();
}

/** A lead's archived consent, its contact opened; undefined when none is archived. */
export async function getArchivedConsent(
  db: Kysely<Database>,
  leadId: string,
  sealer: ContactSealer,
): Promise<RetainedConsent | undefined> {
  const row = await db
    .selectFrom('consent_archive')
    .select(['record', 'contact_sealed'])
    .where('lead_id', '=', leadId)
    .executeTakeFirst();
  if (!row) return undefined;
  const opened = JSON.parse(sealer.open(row.contact_sealed, leadId)) as Record<string, unknown>;
  // Rows archived before the IP and user agent were sealed hold the contact alone, and those two in the record.
  const sealed = 'contact' in opened ? opened : { contact: opened };
  return RetainedConsentSchema.parse({ ...(row.record as object), ...sealed });
}

/** Erases the archived consent of `leadIds` (a deletion request); answers how many rows went. */
export async function deleteConsents(db: Kysely<Database>, leadIds: readonly string[]): Promise<number> {
  if (leadIds.length === 0) return 0;
  const result = await db.deleteFrom('consent_archive').where('lead_id', 'in', leadIds).executeTakeFirst();
  return Number(result.numDeletedRows);
}

/** The retention job: deletes every record kept past its `retained_until`; answers how many. */
export async function purgeExpiredConsents(db: Kysely<Database>, now = new Date()): Promise<number> {
  const result = await db.deleteFrom('consent_archive').where('retained_until', '<', now).executeTakeFirst();
  return Number(result.numDeletedRows);
}
