import { randomUUID } from 'node:crypto';
import type { Redis } from 'ioredis';
import type { Kysely } from 'kysely';
import * as client from 'openid-client';
import { roleAllows, type OperatorMe, type OperatorRole } from '@funnel/contracts/operators';
import type { Database } from '@funnel/db/database';
import { createAccount, findAccount, updateAccount } from '@funnel/db/operator-accounts';
import { me } from './operator-accounts.js';

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
}

/** How long a person has between leaving for the provider and coming back. */
const FLOW_SECONDS = 10 * 60;

export type OidcResult =
  | { ok: true; account: OperatorMe; roleChanged: boolean }
  | { ok: false; reason: 'no-role' | 'disabled' | 'no-email' | 'state'; email?: string };

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
 * instance can take the callback). The provider's groups decide the role at every sign-in, so a person removed
 * from a group loses the role at their next sign-in; an admin can still disable the account here.
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
    let row = await findAccount(this.db, { oidcSubject: subject });
    if (!row && email && claims.email_verified !== false) {
      const byEmail = await findAccount(this.db, { email });
      row =
        byEmail && !byEmail.oidc_subject
          ? await updateAccount(this.db, byEmail.account_id, { oidc_subject: subject })
          : undefined;
      row ??= await createAccount(this.db, {
        accountId: randomUUID(),
        email,
        displayName: typeof claims.name === 'string' && claims.name ? claims.name : email,
        role,
        oidcSubject: subject,
      });
    }
    if (!row) return { ok: false, reason: 'no-email' };
    if (row.disabled_at !== null) return { ok: false, reason: 'disabled', email: row.email };
    const roleChanged = row.role !== role;
    if (roleChanged) row = (await updateAccount(this.db, row.account_id, { role })) ?? row;
    return { ok: true, account: me(row), roleChanged };
  }
}
