import { createHash, randomBytes } from 'node:crypto';

/** Ten, as the authenticator-loss guidance of most consoles: enough for years of lost phones. */
export const RECOVERY_CODE_COUNT = 10;
const ALPHABET = 'abcdefghijklmnopqrstuvwxyz234567';

/**
 * A new recovery code: 16 base32 characters (80 random bits) in four groups, `k7mq-2xvd-9…`. With 80 bits a
 * plain SHA-256 at rest is enough (no offline guessing can cover the space), so checking one costs no scrypt.
 */
export function newRecoveryCode(): string {
  const bytes = randomBytes(16);
  const chars = [...bytes].map((byte) => ALPHABET[byte & 31]).join('');
  return chars.match(/.{4}/g)!.join('-');
}

/** Whether `code` is shaped like a recovery code rather than a 6-digit TOTP code. */
export const isRecoveryCode = (code: string) => /^[a-z2-7]{4}(-?[a-z2-7]{4}){3}$/i.test(code.trim());

/** The hash stored for a code of an account: spaces, dashes and case do not matter; the account salts it. */
export function hashRecoveryCode(accountId: string, code: string): string {
  const normalized = code.toLowerCase().replace(/[^a-z2-7]/g, '');
  return createHash('sha256').update(`${accountId}:${normalized}`).digest('base64url');
}
