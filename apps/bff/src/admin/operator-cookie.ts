import { createHmac, timingSafeEqual } from 'node:crypto';

/** The operator's session cookie, apart from the borrower's (`funnel_lead`): neither ever stands for the other. */
export const OPERATOR_COOKIE = 'funnel_operator';
/** Sent only with the admin API: the borrower's endpoints and pages never see it. */
export const OPERATOR_COOKIE_PATH = '/api/v1/admin';
/** A working day. Enforced from the signed issue time too, so a copied cookie dies even if a browser keeps it. */
export const OPERATOR_SESSION_SECONDS = 8 * 60 * 60;
/** How far ahead of this server's clock an issue time may be (another instance's clock) and still count. */
const CLOCK_SKEW_SECONDS = 60;

/**
 * Signs and checks operator cookies: `<issued-at seconds>.<base64url HMAC-SHA256>`. The MAC covers a purpose
 * label, the operator token's hash and the issue time, so a borrower's signed cookie never verifies as one, and
 * changing ADMIN_API_TOKEN ends every operator session. The first cookie secret signs; all verify (rotation).
 */
export class OperatorCookie {
  constructor(
    private readonly secrets: readonly string[],
    private readonly tokenHash: Buffer,
  ) {}

  issue(nowMs: number): string {
    const issuedAt = String(Math.floor(nowMs / 1000));
    return `${issuedAt}.${this.mac(this.secrets[0]!, issuedAt).toString('base64url')}`;
  }

  /** True when `value` was issued by us for the current token, less than a session ago. */
  verify(value: string, nowMs: number): boolean {
    const match = /^(\d{1,12})\.([A-Za-z0-9_-]{43})$/.exec(value);
    if (!match) return false;
    const [, issuedAt, mac] = match as unknown as [string, string, string];
    const presented = Buffer.from(mac, 'base64url');
    const signed = this.secrets.some((secret) => timingSafeEqual(this.mac(secret, issuedAt), presented));
    if (!signed) return false;
    const age = nowMs / 1000 - Number(issuedAt);
    return age < OPERATOR_SESSION_SECONDS && age > -CLOCK_SKEW_SECONDS;
  }

  private mac(secret: string, issuedAt: string): Buffer {
    return createHmac('sha256', secret)
      .update(`funnel-operator-session\n${this.tokenHash.toString('hex')}\n${issuedAt}`)
      .digest();
  }
}
