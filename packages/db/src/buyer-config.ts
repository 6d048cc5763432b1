import type { Kysely } from 'kysely';
import { splitCredentials, withCredentials, type BuyerConfigVersion } from '@funnel/contracts/buyer-admin';
import type { BuyersFile } from '@funnel/contracts/buyers';
import type { ContactSealer } from './consent-archive.js';
import type { Database } from './database.js';

/** One version of the buyers document as the workers run it: credentials opened, and the paused buyers. */
export interface BuyerConfig {
  version: number;
  at: Date;
  actor: string;
  file: BuyersFile;
  paused: string[];
  /**
   * The buyers whose credential was dropped when their address moved to another origin (ADR 0024): held like a
   * paused buyer until an admin enters a credential again.
   */
  keysNeeded: string[];
}

/** Who makes a version, and why: the audit of the buyers (ADR 0022). */
export interface BuyerConfigChange {
  accountId: string | null;
  actor: string;
  action: BuyerConfigVersion['action'];
  summary: string;
  file: BuyersFile;
  paused: readonly string[];
  /** Left out: none. */
  keysNeeded?: readonly string[];
}

/**
 * A version's id as text (`version_id`): the sealed credentials' associated data, so a version's credentials
 * cannot be moved to another version, and the column key re-sealing (reseal.ts) pages by.
 */
function versionId(version: number): string {
  return String(version).padStart(10, '0');
}

/** The newest version's number, 0 when there is none: what each worker polls for (a cheap index read). */
export async function currentBuyerVersion(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('buyer_config_versions')
    .select('version')
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  return row?.version ?? 0;
}

/**
 * The newest version, validated against the buyers file's schema with its credentials opened; undefined while
 * there is none. A version that no longer validates (the schema grew stricter) throws: the caller keeps the one
 * it runs.
 */
export async function currentBuyerConfig(
  db: Kysely<Database>,
  sealer: ContactSealer,
): Promise<BuyerConfig | undefined> {
  const row = await db
    .selectFrom('buyer_config_versions')
    .selectAll()
    .orderBy('version', 'desc')
    .limit(1)
    .executeTakeFirst();
  if (!row) return undefined;
  const credentials = row.credentials_sealed
    ? (JSON.parse(sealer.open(row.credentials_sealed, row.version_id)) as Record<string, string>)
    : {};
  return {
    version: row.version,
    at: row.at,
    actor: row.actor,
    file: withCredentials(row.document, credentials),
    paused: row.paused as string[],
    keysNeeded: row.keys_needed as string[],
  };
}

/**
 * Appends the version after `baseVersion` (0: the first), or returns `conflict` when another change made that
 * version first (the caller reads the newest and tries again, or tells the operator). The file must already be
 * valid: this stores, it does not judge.
 */
export async function saveBuyerConfig(
  db: Kysely<Database>,
  sealer: ContactSealer,
  baseVersion: number,
  change: BuyerConfigChange,
): Promise<{ version: number } | 'conflict'> {
  const version = baseVersion + 1;
  const { document, credentials } = splitCredentials(change.file);
  const inserted = await db
    .insertInto('buyer_config_versions')
    .values({
      version,
      version_id: versionId(version),
      account_id: change.accountId,
      actor: change.actor,
      action: change.action,
      summary: change.summary,
      document: JSON.stringify(document),
      credentials_sealed:
        Object.keys(credentials).length > 0
          ? sealer.seal(JSON.stringify(credentials), versionId(version))
          : null,
      paused: JSON.stringify([...new Set(change.paused)].sort()),
      keys_needed: JSON.stringify([...new Set(change.keysNeeded ?? [])].sort()),
    })
    .onConflict((c) => c.column('version').doNothing())
    .returning('version')
    .executeTakeFirst();
  return inserted ? { version: inserted.version } : 'conflict';
}

/**
 * Imports a buyers file as the first version when there is none yet (`BUYERS_FILE` at first start); true when it
 * did. Several processes starting together import once: the first version's number is taken by one of them.
 */
export async function importBuyersIfEmpty(
  db: Kysely<Database>,
  sealer: ContactSealer,
  file: BuyersFile,
): Promise<boolean> {
  if ((await currentBuyerVersion(db)) > 0) return false;
  const saved = await saveBuyerConfig(db, sealer, 0, {
    accountId: null,
    actor: 'buyers-file',
    action: 'import',
    summary: `imported ${file.buyers.length} buyers from BUYERS_FILE`,
    file,
    paused: [],
  });
  return saved !== 'conflict';
}

/** The versions, newest first, without their documents. */
export async function listBuyerVersions(db: Kysely<Database>, limit = 100): Promise<BuyerConfigVersion[]> {
  const rows = await db
    .selectFrom('buyer_config_versions')
    .select(['version', 'at', 'actor', 'action', 'summary'])
    .orderBy('version', 'desc')
    .limit(limit)
    .execute();
  return rows.map((row) => ({
    version: row.version,
    at: row.at.toISOString(),
    actor: row.actor,
    action: row.action as BuyerConfigVersion['action'],
    summary: row.summary,
  }));
}
