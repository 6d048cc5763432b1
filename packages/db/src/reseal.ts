import type { Kysely } from 'kysely';
import type { ContactSealer } from './consent-archive.js';
import type { Database } from './database.js';

/** What re-sealing did to one table: rows read, rows written under the newest key, writes retried. */
export interface TableResealCounts {
  seen: number;
  resealed: number;
  retried: number;
}

const BATCH = 500;

/** A table, its id column (the sealed value's associated data) and its sealed column. */
type SealedColumn = [table: keyof Database, id: string, sealed: string];
const CONSENT_CONTACTS: SealedColumn = ['consent_archive', 'lead_id', 'contact_sealed'];
const PRIVACY_REQUESTS: SealedColumn = ['privacy_requests', 'request_id', 'request_sealed'];
/** Operators' TOTP secrets (ADR 0021), sealed with the account id as associated data. */
const OPERATOR_SECRETS: SealedColumn = ['operator_accounts', 'account_id', 'totp_sealed'];
/** Buyers' credentials (ADR 0022), one sealed object per version of the buyers document. */
const BUYER_CREDENTIALS: SealedColumn = ['buyer_config_versions', 'version_id', 'credentials_sealed'];

/**
 * Re-seals one sealed column under the newest key, a batch of rows at a time. Each row is written only if its
 * sealed value is still the one read (check-and-set): an erasure or a retention purge landing meanwhile wins, and
 * the row is read again in a later batch if it still needs it.
 */
async function resealColumn(
  db: Kysely<Database>,
  [table, idColumn, sealedColumn]: SealedColumn,
  currentKeyId: string,
  sealer: ContactSealer,
  onProgress?: (counts: TableResealCounts) => void,
): Promise<TableResealCounts> {
  const counts: TableResealCounts = { seen: 0, resealed: 0, retried: 0 };
  let after = '';
  for (;;) {
    const rows = (await db
      .selectFrom(table)
      .select([`${idColumn} as id`, `${sealedColumn} as sealed`] as never)
      .where(idColumn as never, '>', after as never)
      .orderBy(idColumn as never)
      .limit(BATCH)
      .execute()) as unknown as Array<{ id: string; sealed: string | null }>;
    if (rows.length === 0) return counts;
    for (const { id, sealed } of rows) {
      counts.seen += 1;
      if (!sealed || sealed.split(':')[2] === currentKeyId) continue;
      const next = sealer.seal(sealer.open(sealed, id), id);
      const result = await db
        .updateTable(table)
        .set({ [sealedColumn]: next } as never)
        .where(idColumn as never, '=', id as never)
        .where(sealedColumn as never, '=', sealed as never)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) counts.resealed += 1;
      else counts.retried += 1;
    }
    after = rows.at(-1)!.id;
    onProgress?.(counts);
  }
}

/**
 * Re-seals the consent archive's contacts, the privacy log's requests, operators' TOTP secrets and buyers'
 * credentials under the newest key.
 */
export async function resealDatabase(
  db: Kysely<Database>,
  sealer: ContactSealer,
  options: { currentKeyId: string; onProgress?: (what: string, counts: TableResealCounts) => void },
): Promise<{
  consentArchive: TableResealCounts;
  privacyRequests: TableResealCounts;
  operatorSecrets: TableResealCounts;
  buyerCredentials: TableResealCounts;
}> {
  const progress = (what: string) => (counts: TableResealCounts) => options.onProgress?.(what, counts);
  return {
    consentArchive: await resealColumn(
      db,
      CONSENT_CONTACTS,
      options.currentKeyId,
      sealer,
      progress('consent archive'),
    ),
    privacyRequests: await resealColumn(
      db,
      PRIVACY_REQUESTS,
      options.currentKeyId,
      sealer,
      progress('privacy requests'),
    ),
    operatorSecrets: await resealColumn(
      db,
      OPERATOR_SECRETS,
      options.currentKeyId,
      sealer,
      progress('operator secrets'),
    ),
    buyerCredentials: await resealColumn(
      db,
      BUYER_CREDENTIALS,
      options.currentKeyId,
      sealer,
      progress('buyer credentials'),
    ),
  };
}
