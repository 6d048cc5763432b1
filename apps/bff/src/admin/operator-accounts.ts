import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Kysely } from 'kysely';
import QRCode from 'qrcode';
import type {
  NewOperatorAccountInput,
  OperatorMe,
  OperatorRole,
  TotpEnrolment,
} from '@funnel/contracts/operators';
import type { ContactSealer } from '@funnel/db/consent-archive';
import type { Database } from '@funnel/db/database';
import {
  claimTotpStep,
  createAccount,
  findAccount,
  replaceRecoveryCodes,
  spendRecoveryCode,
  summarizeAccount,
  updateAccount,
  type OperatorAccountRow,
  type OperatorAccountSummary,
} from '@funnel/db/operator-accounts';
import { hashPassword, verifyPassword } from './password.js';
import { weakPasswordReason } from './password-strength.js';
import { hashRecoveryCode, isRecoveryCode, newRecoveryCode, RECOVERY_CODE_COUNT } from './recovery-codes.js';
import type { SignInLockout } from './sign-in-lockout.js';
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

/**
 * Creates an account with a one-time set-up link; undefined when the email already has one. Also the first
 * admin's, made by `npm run operator:create-admin` before any BFF runs.
 */
export async function createWithSetupLink(
  db: Kysely<Database>,
  input: NewOperatorAccountInput,
  nowMs: number,
): Promise<SetupLink | undefined> {
  const link = newSetupLink(nowMs);
  const row = await createAccount(db, {
    accountId: randomUUID(),
    email: input.email,
    displayName: input.displayName,
    role: input.role,
    setup: { tokenHash: link.tokenHash, expiresAt: link.expiresAt },
  });
  return row ? link.answer(row) : undefined;
}

/** How a sign-in proved the second factor, for its audit entry. */
export type SecondFactorUsed = 'none' | 'totp' | 'recovery-code';

export type SignInResult =
  | { ok: true; account: OperatorMe; secondFactor: SecondFactorUsed; recoveryCodesLeft?: number }
  /**
   * Why, for the audit log only: the person gets one answer for all of them (ADR 0023). `held`: the account's
   * lockout is on, and nothing was checked.
   */
  | { ok: false; reason: 'invalid' | 'code-missing' | 'code-wrong'; heldForMs: number }
  | { ok: false; reason: 'held'; heldForMs: number };

/** Who signed in, as the console shows it: the account's summary without its dates and sign-in methods. */
export function me(row: OperatorAccountRow): OperatorMe {
  const { accountId, email, displayName, role, secondFactor } = summarizeAccount(row);
  return { accountId, email, displayName, role, secondFactor };
}

/**
 * Local operator accounts (ADR 0021, 0023): scrypt passwords strong enough for zxcvbn, chosen through a one-time
 * set-up link (never a default password), and a TOTP second factor (RFC 6238), sealed at rest, with ten
 * single-use recovery codes (hashed), required at sign-in once enrolled. Wrong sign-ins of an account add up to
 * a lockout, whatever the addresses they come from.
 */
export class OperatorAccounts {
  constructor(
    readonly db: Kysely<Database>,
    private readonly sealer: ContactSealer,
    /** The issuer an authenticator app shows beside the code. */
    private readonly issuer: string,
    private readonly lockout: SignInLockout,
    /** The roles that must enrol a second factor before they use the console (OPERATOR_SECOND_FACTOR_ROLES). */
    private readonly secondFactorRoles: readonly OperatorRole[],
  ) {}

  /** The account id is the sealed secret's associated data: a secret copied to another account fails to open. */
  private totpContext = (accountId: string) => accountId;

  /** Whether an account of `account`'s role and factor must enrol a second factor before it uses the console. */
  needsSecondFactor(account: Pick<OperatorMe, 'role' | 'secondFactor'>): boolean {
    return !account.secondFactor && this.secondFactorRoles.includes(account.role);
  }

  /**
   * Checks a local sign-in from `ip`. One answer, after the same scrypt work, for an unknown email, a wrong
   * password, a disabled account, a missing or wrong code: a caller never learns which part was wrong, nor
   * whether the password was right. An account held by its lockout is not checked at all.
   */
  async signIn(
    email: string,
    password: string,
    code: string | undefined,
    ip: string,
    nowMs: number,
  ): Promise<SignInResult> {
    const held = await this.lockout.heldFor(email, ip, nowMs);
    if (held > 0) return { ok: false, reason: 'held', heldForMs: held };
    const result = await this.check(email, password, code, nowMs);
    if (result.ok) await this.lockout.succeeded(email, ip, nowMs);
    return result.ok ? result : { ...result, heldForMs: await this.lockout.failed(email, nowMs) };
  }

  private async check(
    email: string,
    password: string,
    code: string | undefined,
    nowMs: number,
  ): Promise<SignInResult | { ok: false; reason: 'invalid' | 'code-missing' | 'code-wrong' }> {
    const row = await findAccount(this.db, { email });
    const passwordOk = await verifyPassword(password, row?.password_hash);
    if (!row || !passwordOk || row.disabled_at !== null) return { ok: false, reason: 'invalid' };
    if (row.totp_sealed === null) return { ok: true, account: me(row), secondFactor: 'none' };
    if (code === undefined) return { ok: false, reason: 'code-missing' };
    if (isRecoveryCode(code)) {
      const left = await spendRecoveryCode(
        this.db,
        row.account_id,
        hashRecoveryCode(row.account_id, code),
        new Date(nowMs),
      );
      return left === undefined
        ? { ok: false, reason: 'code-wrong' }
        : { ok: true, account: me(row), secondFactor: 'recovery-code', recoveryCodesLeft: left };
    }
    const secret = this.sealer.open(row.totp_sealed, this.totpContext(row.account_id));
    const step = matchTotp(secret, code, nowMs);
    if (step === undefined || !(await claimTotpStep(this.db, row.account_id, step))) {
      return { ok: false, reason: 'code-wrong' };
    }
    return { ok: true, account: me(row), secondFactor: 'totp' };
  }

  /** Creates an account with a one-time set-up link; undefined when the email already has one. */
  create(input: NewOperatorAccountInput, nowMs: number): Promise<SetupLink | undefined> {
    return createWithSetupLink(this.db, input, nowMs);
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
    if (row) await replaceRecoveryCodes(this.db, accountId, []);
    return row ? link.answer(row) : undefined;
  }

  /**
   * Uses a set-up link: sets the password and spends the link. `link` for an unknown or expired link, `weak`
   * (with the reason a person reads) for a password zxcvbn finds easy to guess; the link then still works.
   */
  async completeSetup(
    token: string,
    password: string,
    nowMs: number,
  ): Promise<
    | { ok: true; row: OperatorAccountRow }
    | { ok: false; reason: 'link' }
    | { ok: false; reason: 'weak'; why: string }
  > {
    const row = await findAccount(this.db, { setupTokenHash: hashToken(token) });
    if (!row?.setup_expires_at || row.setup_expires_at.getTime() <= nowMs || row.disabled_at !== null) {
      return { ok: false, reason: 'link' };
    }
    const why = weakPasswordReason(password, [row.email, row.display_name]);
    if (why) return { ok: false, reason: 'weak', why };
    const updated = await updateAccount(this.db, row.account_id, {
      password_hash: await hashPassword(password),
      setup_token_hash: null,
      setup_expires_at: null,
    });
    return updated ? { ok: true, row: updated } : { ok: false, reason: 'link' };
  }

  /**
   * Starts enrolling a second factor: a new secret, kept pending until a first code confirms it, with its QR
   * code drawn here as SVG, so the secret never travels in a URL the browser would fetch.
   */
  async startTotp(accountId: string, email: string): Promise<TotpEnrolment> {
    const secret = newTotpSecret();
    await updateAccount(this.db, accountId, {
      totp_pending_sealed: this.sealer.seal(secret, this.totpContext(accountId)),
    });
    const uri = otpauthUri(this.issuer, email, secret);
    const qrSvg = await QRCode.toString(uri, { type: 'svg', errorCorrectionLevel: 'M', margin: 2 });
    return { secret, otpauthUri: uri, qrSvg };
  }

  /**
   * Confirms the pending secret with a code from it: from now on, sign-in asks for a code. Answers the ten
   * recovery codes, shown this once (only their hashes are kept), or undefined for a wrong code.
   */
  async confirmTotp(accountId: string, code: string, nowMs: number): Promise<string[] | undefined> {
    const row = await findAccount(this.db, { accountId });
    if (!row?.totp_pending_sealed) return undefined;
    const secret = this.sealer.open(row.totp_pending_sealed, this.totpContext(accountId));
    const step = matchTotp(secret, code, nowMs);
    if (step === undefined || !(await claimTotpStep(this.db, accountId, step))) return undefined;
    const codes = Array.from({ length: RECOVERY_CODE_COUNT }, newRecoveryCode);
    await replaceRecoveryCodes(
      this.db,
      accountId,
      codes.map((c) => hashRecoveryCode(accountId, c)),
    );
    await updateAccount(this.db, accountId, {
      totp_sealed: row.totp_pending_sealed,
      totp_pending_sealed: null,
    });
    return codes;
  }
}
