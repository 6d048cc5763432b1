import type { Kysely, Selectable } from 'kysely';
import type { Database } from './database.js';
import type { OperatorRole, OperatorTables } from './operator-schema.js';

export type OperatorAccountRow = Selectable<OperatorTables['operator_accounts']>;

/** An account as the console lists it: never its password hash, TOTP secret or set-up token. */
export interface OperatorAccountSummary {
  accountId: string;
  email: string;
  displayName: string;
  role: OperatorRole;
  /** A password is set (a set-up link was used); false for an OIDC-only account or a pending one. */
  hasPassword: boolean;
  secondFactor: boolean;
  oidc: boolean;
  createdAt: string;
  disabledAt: string | null;
}

export function summarizeAccount(row: OperatorAccountRow): OperatorAccountSummary {
  return {
    accountId: row.account_id,
    email: row.email,
    displayName: row.display_name,
    role: row.role,
    hasPassword: row.password_hash !== null,
    secondFactor: row.totp_sealed !== null,
    oidc: row.oidc_subject !== null,
    createdAt: new Date(row.created_at).toISOString(),
    disabledAt: row.disabled_at ? new Date(row.disabled_at).toISOString() : null,
  };
}

export interface NewOperatorAccount {
  accountId: string;
  email: string;
  displayName: string;
  role: OperatorRole;
  /** A one-time set-up link (its token's SHA-256), or none for an account that signs in through OIDC. */
  setup?: { tokenHash: string; expiresAt: Date };
  oidcSubject?: string;
  /** The provider's groups set the role at each sign-in (an account the provider created). */
  roleFromProvider?: boolean;
}

/** Creates an account; undefined when the email is taken. */
export async function createAccount(
  db: Kysely<Database>,
  account: NewOperatorAccount,
): Promise<OperatorAccountRow | undefined> {
  return db
    .insertInto('operator_accounts')
    .values({
      account_id: account.accountId,
      email: account.email.toLowerCase(),
      display_name: account.displayName,
      role: account.role,
      password_hash: null,
      totp_sealed: null,
      totp_pending_sealed: null,
      totp_last_step: null,
      setup_token_hash: account.setup?.tokenHash ?? null,
      setup_expires_at: account.setup?.expiresAt ?? null,
      oidc_subject: account.oidcSubject ?? null,
      disabled_at: null,
      role_from_provider: account.roleFromProvider ?? false,
    })
    .onConflict((c) => c.column('email').doNothing())
    .returningAll()
    .executeTakeFirst();
}

export function findAccount(
  db: Kysely<Database>,
  by: { accountId: string } | { email: string } | { setupTokenHash: string } | { oidcSubject: string },
): Promise<OperatorAccountRow | undefined> {
  const query = db.selectFrom('operator_accounts').selectAll();
  if ('accountId' in by) return query.where('account_id', '=', by.accountId).executeTakeFirst();
  if ('email' in by) return query.where('email', '=', by.email.toLowerCase()).executeTakeFirst();
  if ('oidcSubject' in by) return query.where('oidc_subject', '=', by.oidcSubject).executeTakeFirst();
  return query.where('setup_token_hash', '=', by.setupTokenHash).executeTakeFirst();
}

export async function listAccounts(db: Kysely<Database>): Promise<OperatorAccountSummary[]> {
  const rows = await db.selectFrom('operator_accounts').selectAll().orderBy('email').execute();
  return rows.map(summarizeAccount);
}

export async function countAccounts(db: Kysely<Database>): Promise<number> {
  const row = await db
    .selectFrom('operator_accounts')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** The columns an account's own changes write: role, state, password, second factor, set-up link, OIDC link. */
export type AccountChange = Partial<
  Pick<
    OperatorTables['operator_accounts'],
    | 'role'
    | 'display_name'
    | 'disabled_at'
    | 'password_hash'
    | 'totp_sealed'
    | 'totp_pending_sealed'
    | 'setup_token_hash'
    | 'setup_expires_at'
    | 'oidc_subject'
  >
>;

export async function updateAccount(
  db: Kysely<Database>,
  accountId: string,
  change: AccountChange,
): Promise<OperatorAccountRow | undefined> {
  return db
    .updateTable('operator_accounts')
    .set(change)
    .where('account_id', '=', accountId)
    .returningAll()
    .executeTakeFirst();
}

/**
 * Records `step` as the account's last accepted TOTP step, only if it is later than the one before: true when it
 * was, false for a code already used (a replay within its 30 seconds).
 */
export async function claimTotpStep(db: Kysely<Database>, accountId: string, step: number): Promise<boolean> {
  const row = await db
    .updateTable('operator_accounts')
    .set({ totp_last_step: step })
    .where('account_id', '=', accountId)
    .where((eb) => eb.or([eb('totp_last_step', 'is', null), eb('totp_last_step', '<', step)]))
    .returning('account_id')
    .executeTakeFirst();
  return row !== undefined;
}

/** Replaces an account's recovery codes with new ones (their hashes); an empty list removes them. */
export async function replaceRecoveryCodes(
  db: Kysely<Database>,
  accountId: string,
  codeHashes: readonly string[],
): Promise<void> {
  await db.transaction().execute(async (tx) => {
    await tx.deleteFrom('operator_recovery_codes').where('account_id', '=', accountId).execute();
    if (codeHashes.length === 0) return;
    await tx
      .insertInto('operator_recovery_codes')
      .values(codeHashes.map((code_hash) => ({ account_id: accountId, code_hash, used_at: null })))
      .execute();
  });
}

/**
 * Spends a recovery code: marks it used only if it was not (one statement, so two sign-ins racing with the same
 * code cannot both win). Answers how many unused codes are left, or undefined when the code was not spendable.
 */
export async function spendRecoveryCode(
  db: Kysely<Database>,
  accountId: string,
  codeHash: string,
  at: Date,
): Promise<number | undefined> {
  const spent = await db
    .updateTable('operator_recovery_codes')
    .set({ used_at: at })
    .where('account_id', '=', accountId)
    .where('code_hash', '=', codeHash)
    .where('used_at', 'is', null)
    .returning('account_id')
    .executeTakeFirst();
  if (!spent) return undefined;
  const left = await db
    .selectFrom('operator_recovery_codes')
    .select((eb) => eb.fn.countAll<string>().as('n'))
    .where('account_id', '=', accountId)
    .where('used_at', 'is', null)
    .executeTakeFirstOrThrow();
  return Number(left.n);
}

/**
 * Links an identity provider's subject to an account that has none yet; undefined when the account was linked
 * meanwhile or the subject belongs to another account already.
 */
export async function linkOidcSubject(
  db: Kysely<Database>,
  accountId: string,
  subject: string,
): Promise<OperatorAccountRow | undefined> {
  const taken = await findAccount(db, { oidcSubject: subject });
  if (taken) return undefined;
  return db
    .updateTable('operator_accounts')
    .set({ oidc_subject: subject })
    .where('account_id', '=', accountId)
    .where('oidc_subject', 'is', null)
    .returningAll()
    .executeTakeFirst();
}
