import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import type { NewOperatorAccountInput, OperatorMe, TotpEnrolment } from '@funnel/contracts/operators';
import type { ContactSealer } from '@funnel/db/consent-archive';
import type { Database } from '@funnel/db/database';
import {
  claimTotpStep,
  createAccount,
  findAccount,
  summarizeAccount,
  updateAccount,
  type OperatorAccountRow,
  type OperatorAccountSummary,
} from '@funnel/db/operator-accounts';
import { hashPassword, verifyPassword } from './password.js';
import { matchTotp, newTotpSecret, otpauthUri } from '@funnel/server-runtime/totp';

/** How long a set-up link works: a day to open the email and choose a password. */
const SETUP_LINK_MS = 24 * 60 * 60 * 1000;
/** The console's page that reads the link's token from the fragment (never sent to a server, never logged). */
export const SETUP_PATH = '/operator/setup';

export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');

/** An account and the one-time link its owner opens to choose a password. */
export interface SetupLink {
  account: OperatorAccountSummary;
  setupPath: string;
  setupExpiresAt: string;
}

/** A new set-up token: 32 random bytes in the link, only their SHA-256 stored. */
function newSetupLink(nowMs: number) {
  const token = randomBytes(32).toString('base64url');
  const expiresAt = new Date(nowMs + SETUP_LINK_MS);
  return {
    tokenHash: hashToken(token),
    expiresAt,
    answer: (row: OperatorAccountRow): SetupLink => ({
      account: summarizeAccount(row),
      setupPath: `${SETUP_PATH}#${token}`,
      setupExpiresAt: expiresAt.toISOString(),
    }),
  };
}

export type SignInResult =
  { ok: true; account: OperatorMe } | { ok: false; reason: 'invalid' | 'code-required' | 'code-wrong' };

/** Who signed in, as the console shows it: the account's summary without its dates and sign-in methods. */
export function me(row: OperatorAccountRow): OperatorMe {
  const { accountId, email, displayName, role, secondFactor } = summarizeAccount(row);
  return { accountId, email, displayName, role, secondFactor };
}

/**
 * Local operator accounts (ADR 0021): scrypt passwords, chosen through a one-time set-up link (never a default
 * password), and a TOTP second factor (RFC 6238), sealed at rest and required at sign-in once enrolled.
 */
export class OperatorAccounts {
  constructor(
    readonly db: Kysely<Database>,
    private readonly sealer: ContactSealer,
    /** The issuer an authenticator app shows beside the code. */
    private readonly issuer: string,
  ) {}

  /** The account id is the sealed secret's associated data: a secret copied to another account fails to open. */
  private totpContext = (accountId: string) => accountId;

  /**
   * Checks a local sign-in. The same answer, after the same scrypt work, for an unknown email, a wrong password
   * and a disabled account; the code is asked for only after the password was right.
   */
  async signIn(
    email: string,
    password: string,
    code: string | undefined,
    nowMs: number,
  ): Promise<SignInResult> {
    const row = await findAccount(this.db, { email });
    const passwordOk = await verifyPassword(password, row?.password_hash);
    if (!row || !passwordOk || row.disabled_at !== null) return { ok: false, reason: 'invalid' };
    if (row.totp_sealed !== null) {
      if (code === undefined) return { ok: false, reason: 'code-required' };
      const secret = this.sealer.open(row.totp_sealed, this.totpContext(row.account_id));
      const step = matchTotp(secret, code, nowMs);
      if (step === undefined || !(await claimTotpStep(this.db, row.account_id, step))) {
        return { ok: false, reason: 'code-wrong' };
      }
    }
    return { ok: true, account: me(row) };
  }

  /** Creates an account with a one-time set-up link; undefined when the email already has one. */
  async create(input: NewOperatorAccountInput, nowMs: number): Promise<SetupLink | undefined> {
    const link = newSetupLink(nowMs);
    const row = await createAccount(this.db, {
      accountId: randomUUID(),
      email: input.email,
      displayName: input.displayName,
      role: input.role,
      setup: { tokenHash: link.tokenHash, expiresAt: link.expiresAt },
    });
    return row ? link.answer(row) : undefined;
  }

  /**
   * Starts an account over (a forgotten password, a lost phone): its password and second factor are removed, so
   * it cannot sign in until its owner uses the new one-time link and enrols again. Undefined for no such account.
   */
  async reset(accountId: string, nowMs: number): Promise<SetupLink | undefined> {
    const link = newSetupLink(nowMs);
    const row = await updateAccount(this.db, accountId, {
      password_hash: null,
      totp_sealed: null,
      totp_pending_sealed: null,
      setup_token_hash: link.tokenHash,
      setup_expires_at: link.expiresAt,
    });
    return row ? link.answer(row) : undefined;
  }

  /** Uses a set-up link: sets the password and spends the link. False for an unknown or expired link. */
  async completeSetup(
    token: string,
    password: string,
    nowMs: number,
  ): Promise<OperatorAccountRow | undefined> {
    const row = await findAccount(this.db, { setupTokenHash: hashToken(token) });
    if (!row?.setup_expires_at || row.setup_expires_at.getTime() <= nowMs || row.disabled_at !== null) {
      return undefined;
    }
    return updateAccount(this.db, row.account_id, {
      password_hash: await hashPassword(password),
      setup_token_hash: null,
      setup_expires_at: null,
    });
  }

  /** Starts enrolling a second factor: a new secret, kept pending until a first code confirms it. */
  async startTotp(accountId: string, email: string): Promise<TotpEnrolment> {
    const secret = newTotpSecret();
    await updateAccount(this.db, accountId, {
      totp_pending_sealed: this.sealer.seal(secret, this.totpContext(accountId)),
    });
    return { secret, otpauthUri: otpauthUri(this.issuer, email, secret) };
  }

  /** Confirms the pending secret with a code from it: from now on, sign-in asks for a code. */
  async confirmTotp(accountId: string, code: string, nowMs: number): Promise<boolean> {
    const row = await findAccount(this.db, { accountId });
    if (!row?.totp_pending_sealed) return false;
    const secret = this.sealer.open(row.totp_pending_sealed, this.totpContext(accountId));
    const step = matchTotp(secret, code, nowMs);
    if (step === undefined || !(await claimTotpStep(this.db, accountId, step))) return false;
    await updateAccount(this.db, accountId, {
      totp_sealed: row.totp_pending_sealed,
      totp_pending_sealed: null,
    });
    return true;
  }
}
