import { randomBytes, randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import { roleAllows, type OperatorMe, type OperatorRole } from '@funnel/contracts/operators';
import type { Database } from '@funnel/db/database';
import { createAccount, findAccount, linkOidcSubject, updateAccount } from '@funnel/db/operator-accounts';
import { me, type OperatorAccounts, type SecondFactorUsed } from './operator-accounts.js';

/** What the organisation's identity provider is, and how its groups become roles (ADR 0021). */
export interface OidcSettings {
  issuer: string;
  clientId: string;
  clientSecret: string;
  /** This BFF's callback, as registered with the provider: `https://…/api/v1/admin/oidc/callback`. */
  redirectUrl: string;
  /** The claim holding the person's groups (a list or one string). */
  roleClaim: string;
  /** Group → role; a person in several groups gets the highest of their roles. */
  roleMap: ReadonlyMap<string, OperatorRole>;
  /** Plain-HTTP provider (tests and local development only; refused in production by env.ts). */
  allowHttp: boolean;
  /** The groups also set the role of a local account linked to the provider (OIDC_SYNC_LOCAL_ROLES). */
  syncLocalRoles: boolean;
}

/** How long a person has between leaving for the provider and coming back. */
const FLOW_SECONDS = 10 * 60;

/** Who the provider vouched for, in the audit log when that is not (yet) an account: `oidc:<issuer>|<subject>`. */
export const providerActor = (subject: string) => `oidc:${subject}`;

export type OidcResult =
  | { ok: true; account: OperatorMe; roleChanged: boolean }
  | { ok: false; reason: 'no-role' | 'disabled' | 'no-email' | 'state'; email?: string }
  /**
   * The provider's email names a console account it may not sign in: unverified, or the account linked to
   * someone else at the provider already, or one with no password to prove it by. Refused, and audited under the
   * provider's subject, never the account's name.
   */
  | {
      ok: false;
      reason: 'unverified-email' | 'linked-elsewhere' | 'no-password';
      subject: string;
      targetAccountId?: string;
    }
  /** The email names a local account: its owner proves it (`link`) once, within FLOW_SECONDS. */
  | { ok: false; reason: 'link-needs-proof'; subject: string; targetAccountId: string; linkToken: string };

export type OidcLinkResult =
  | { ok: true; account: OperatorMe; secondFactor: SecondFactorUsed }
  | { ok: false; reason: 'expired' }
  | {
      ok: false;
      reason: 'invalid' | 'code-missing' | 'code-wrong' | 'held' | 'linked-elsewhere';
      subject: string;
      targetAccountId: string;
      heldForMs: number;
    };

/** The highest role the person's groups map to, or undefined when none does. */
export function roleOf(
  claims: Record<string, unknown>,
  settings: Pick<OidcSettings, 'roleClaim' | 'roleMap'>,
) {
  const value = claims[settings.roleClaim];
  const groups = Array.isArray(value) ? value : typeof value === 'string' ? [value] : [];
  let best: OperatorRole | undefined;
  for (const group of groups) {
    const role = typeof group === 'string' ? settings.roleMap.get(group) : undefined;
    if (role && (!best || roleAllows(role, best))) best = role;
  }
  return best;
}

/**
 * Sign-in through the organisation's identity provider: OpenID Connect authorization code flow with PKCE (S256),
 * `state` and `nonce`, with `openid-client`. The flow's secrets wait in Redis under the state (every BFF
 * instance can take the callback). For an account the provider created, its groups decide the role at every
 * sign-in, so a person removed from a group loses the role at their next sign-in; an admin can still disable the
 * account here. A local account is never taken over (ADR 0023): the provider must say the email is verified,
 * and the account's owner proves it with its password and second factor, once, before it is linked; its role
 * stays the one an admin gave it unless OIDC_SYNC_LOCAL_ROLES is on.
 */
export class OidcSignIn {
  private configuration: Promise<client.Configuration> | undefined;

  constructor(
    private readonly settings: OidcSettings,
    private readonly redis: Redis,
    private readonly keyPrefix: string,
    private readonly db: Kysely<Database>,
  ) {}

  /** Where the provider sends the browser back. */
  get redirectUrl(): string {
    return this.settings.redirectUrl;
  }

  private config(): Promise<client.Configuration> {
    this.configuration ??= client
      .discovery(
        new URL(this.settings.issuer),
        this.settings.clientId,
        this.settings.clientSecret,
        undefined,
        this.settings.allowHttp ? { execute: [client.allowInsecureRequests] } : undefined,
      )
      .catch((error: unknown) => {
        this.configuration = undefined; // try discovery again on the next sign-in
        throw error;
      });
    return this.configuration;
  }

  private flowKey(state: string): string {
    return `${this.keyPrefix}operator-oidc:${state}`;
  }

  private linkKey(token: string): string {
    return `${this.keyPrefix}operator-oidc-link:${token}`;
  }

  /** The provider's authorization URL, and the state the browser must bring back (in a cookie). */
  async start(): Promise<{ url: string; state: string }> {
    const config = await this.config();
    const verifier = client.randomPKCECodeVerifier();
    const state = client.randomState();
    const nonce = client.randomNonce();
    await this.redis.set(this.flowKey(state), JSON.stringify({ verifier, nonce }), 'EX', FLOW_SECONDS);
    const url = client.buildAuthorizationUrl(config, {
      redirect_uri: this.settings.redirectUrl,
      scope: `openid email profile ${this.settings.roleClaim}`,
      code_challenge: await client.calculatePKCECodeChallenge(verifier),
      code_challenge_method: 'S256',
      state,
      nonce,
    });
    return { url: url.href, state };
  }

  /** Completes the flow from the callback URL; the account it signs in, created or linked on first use. */
  async finish(callbackUrl: URL, cookieState: string | undefined): Promise<OidcResult> {
    const state = callbackUrl.searchParams.get('state');
    if (!state || state !== cookieState) return { ok: false, reason: 'state' };
    const flow = await this.redis.getdel(this.flowKey(state));
    if (!flow) return { ok: false, reason: 'state' };
    const { verifier, nonce } = JSON.parse(flow) as { verifier: string; nonce: string };
    const config = await this.config();
    const tokens = await client.authorizationCodeGrant(config, callbackUrl, {
      pkceCodeVerifier: verifier,
      expectedState: state,
      expectedNonce: nonce,
    });
    const idClaims = tokens.claims();
    if (!idClaims) return { ok: false, reason: 'state' };
    // Providers put groups and email in the ID token or only in UserInfo: both are read.
    const userInfo = config.serverMetadata().userinfo_endpoint
      ? await client.fetchUserInfo(config, tokens.access_token, idClaims.sub)
      : {};
    const claims: Record<string, unknown> = { ...userInfo, ...idClaims };
    const email = typeof claims.email === 'string' ? claims.email.toLowerCase() : undefined;
    const role = roleOf(claims, this.settings);
    if (!role) return { ok: false, reason: 'no-role', ...(email ? { email } : {}) };
    const subject = `${idClaims.iss}|${idClaims.sub}`;
    // Only an explicit `true`: a provider that omits the claim has not checked the address (issue 40).
    const verified = claims.email_verified === true;
    let row = await findAccount(this.db, { oidcSubject: subject });
    if (!row) {
      if (!email) return { ok: false, reason: 'no-email' };
      const byEmail = await findAccount(this.db, { email });
      if (byEmail) return this.refuseOrAskProof(byEmail, subject, verified);
      if (!verified) return { ok: false, reason: 'unverified-email', subject };
      row = await createAccount(this.db, {
        accountId: randomUUID(),
        email,
        displayName: typeof claims.name === 'string' && claims.name ? claims.name : email,
        role,
        oidcSubject: subject,
        roleFromProvider: true,
      });
      if (!row) return { ok: false, reason: 'no-email' };
    }
    if (row.disabled_at !== null) return { ok: false, reason: 'disabled', email: row.email };
    const followsProvider = row.role_from_provider || this.settings.syncLocalRoles;
    const roleChanged = followsProvider && row.role !== role;
    if (roleChanged) row = (await updateAccount(this.db, row.account_id, { role })) ?? row;
    return { ok: true, account: me(row), roleChanged };
  }

  /** A provider's person whose email names an existing account: refused, or asked to prove the account once. */
  private async refuseOrAskProof(
    row: NonNullable<Awaited<ReturnType<typeof findAccount>>>,
    subject: string,
    verified: boolean,
  ): Promise<OidcResult> {
    const target = { subject, targetAccountId: row.account_id };
    if (!verified) return { ok: false, reason: 'unverified-email', ...target };
    if (row.oidc_subject !== null) return { ok: false, reason: 'linked-elsewhere', ...target };
    if (row.disabled_at !== null) return { ok: false, reason: 'disabled' };
    if (row.password_hash === null) return { ok: false, reason: 'no-password', ...target };
    const linkToken = randomBytes(32).toString('base64url');
    await this.redis.set(
      this.linkKey(linkToken),
      JSON.stringify({ accountId: row.account_id, subject }),
      'EX',
      FLOW_SECONDS,
    );
    return { ok: false, reason: 'link-needs-proof', linkToken, ...target };
  }

  /**
   * Links the provider's person to the account their email named, once its owner proved it: the account's
   * password and, when enrolled, its second factor, checked as a local sign-in (lockout included). A wrong
   * proof leaves the request open for another try until it expires.
   */
  async link(
    linkToken: string | undefined,
    proof: { password: string; code?: string | undefined },
    accounts: OperatorAccounts,
    ip: string,
    nowMs: number,
  ): Promise<OidcLinkResult> {
    const raw = linkToken ? await this.redis.get(this.linkKey(linkToken)) : null;
    if (!linkToken || raw === null) return { ok: false, reason: 'expired' };
    const pending = JSON.parse(raw) as { accountId: string; subject: string };
    const row = await findAccount(this.db, { accountId: pending.accountId });
    if (!row) return { ok: false, reason: 'expired' };
    const target = { subject: pending.subject, targetAccountId: row.account_id };
    const proved = await accounts.signIn(row.email, proof.password, proof.code, ip, nowMs);
    if (!proved.ok) return { ok: false, reason: proved.reason, heldForMs: proved.heldForMs, ...target };
    await this.redis.del(this.linkKey(linkToken));
    const linked = await linkOidcSubject(this.db, row.account_id, pending.subject);
    if (!linked) return { ok: false, reason: 'linked-elsewhere', heldForMs: 0, ...target };
    return { ok: true, account: me(linked), secondFactor: proved.secondFactor };
  }
}
