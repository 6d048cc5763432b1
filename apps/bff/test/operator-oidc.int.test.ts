// Console sign-in through the organisation's identity provider (issue 33, ADR 0021), against a real OpenID
// Provider: `oidc-provider` (OpenID Certified) started by this test on a free port (`@funnel/testing/oidc-provider`,
// shared with the browser test), whose sign-in and consent pages the test fills as a person at the provider would.
// No mock: discovery, the authorization request with PKCE, the code exchange, the ID token's signature and UserInfo
// are all the real protocol.
import type { Kysely } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migrate, openDatabase, type Database } from '@funnel/db/database';
import { startOidcProvider, type OidcPerson, type TestOidcProvider } from '@funnel/testing/oidc-provider';
import { dropSchema, testDatabaseUrl, testSchema } from '@funnel/testing/postgres';
import { CONSOLE_REQUEST_HEADER } from '@funnel/contracts/console-request-header';
import { base32Decode, hotp, totpStep } from '@funnel/server-runtime/totp';
import { OPERATOR_COOKIE } from '../src/plugins/admin-auth.js';
import { startTestApp, type TestApp } from './test-app.js';

const REDIRECT = 'http://localhost:3000/api/v1/admin/oidc/callback';
const CLIENT = {
  clientId: 'funnel-console',
  clientSecret: 'funnel-console-secret-0123456789abcdef',
  redirectUri: REDIRECT,
};

/** The provider's directory: each person's claims, groups included. */
const people: Record<string, OidcPerson> = {
  grace: {
    email: 'grace@example.com',
    name: 'Grace Hopper',
    groups: ['staff', 'funnel-admins'],
    password: 'cobol',
  },
  linus: { email: 'linus@example.com', name: 'Linus', groups: ['staff'], password: 'kernel' },
  // Someone at the provider claiming a local admin's email: the provider does not say it checked it.
  mallory: {
    email: 'ada@example.com',
    name: 'Mallory',
    groups: ['funnel-viewers'],
    password: 'mallory',
    emailVerified: 'absent',
  },
  // The admin herself at the provider, her address verified there, in a viewer group.
  ada: { email: 'ada@example.com', name: 'Ada', groups: ['funnel-viewers'], password: 'engine' },
};
const TOKEN = 'operator-oidc-'.padEnd(48, 't');
const ADA_PASSWORD = 'analytical engine notes on bernoulli';

describe('operator sign-in through OpenID Connect', () => {
  const schema = testSchema('opoidc');
  let db: Kysely<Database>;
  let t: TestApp;
  let provider: TestOidcProvider;
  let issuer: string;
  /** Who signs in at the provider next. */
  let person = 'grace';

  beforeAll(async () => {
    provider = await startOidcProvider(CLIENT, people);
    issuer = provider.issuer;
    db = openDatabase({ url: testDatabaseUrl(), schema });
    await migrate(db, schema);
    t = await startTestApp({
      env: {
        DATABASE_URL: `${testDatabaseUrl()}?options=${encodeURIComponent(`-c search_path=${schema}`)}`,
        OIDC_ISSUER_URL: issuer,
        OIDC_CLIENT_ID: CLIENT.clientId,
        OIDC_CLIENT_SECRET: CLIENT.clientSecret,
        OIDC_REDIRECT_URL: REDIRECT,
        OIDC_ROLE_MAP: 'funnel-viewers=viewer,funnel-admins=admin',
        OIDC_PROVIDER_NAME: 'Example Identity',
        OIDC_ALLOW_HTTP: 'true',
        RATE_LIMIT_MAX: '100000',
        ADMIN_API_TOKEN: TOKEN,
      },
    });
  });
  afterAll(async () => {
    await t.close();
    await db.destroy();
    await dropSchema(schema);
    await provider.close();
  });

  /**
   * A browser's sign-in: the BFF's start, then the provider's redirects with the provider's cookies, until the
   * provider sends the browser to our callback; the callback is given the state cookie `start` set.
   */
  async function signInAtProvider(stateCookie?: string) {
    const start = await t.app.inject({ url: '/api/v1/admin/oidc/start' });
    expect(start.statusCode).toBe(302);
    const state = start.cookies.find((c) => c.name === 'funnel_oidc_state')!;
    expect(state).toMatchObject({ httpOnly: true, sameSite: 'Lax', path: '/api/v1/admin/oidc' });
    const authorize = new URL(start.headers.location as string);
    expect(authorize.searchParams.get('code_challenge_method')).toBe('S256');
    const jar = new Map<string, string>();
    let url = authorize.href;
    let form: URLSearchParams | undefined;
    for (let hop = 0; !url.startsWith(REDIRECT); hop += 1) {
      if (hop > 10) throw new Error('too many redirects');
      const response = await fetch(url, {
        redirect: 'manual',
        method: form ? 'POST' : 'GET',
        body: form,
        headers: { cookie: [...jar].map(([name, value]) => `${name}=${value}`).join('; ') },
      });
      for (const cookie of response.headers.getSetCookie()) {
        const [pair] = cookie.split(';');
        const at = pair!.indexOf('=');
        jar.set(pair!.slice(0, at), pair!.slice(at + 1));
      }
      const location = response.headers.get('location');
      if (location) {
        url = new URL(location, url).href;
        form = undefined;
        continue;
      }
      // One of the provider's pages: its sign-in form (the person's username and password) or its consent form.
      const page = await response.text();
      const action = /<form method="post" action="([^"]+)"/.exec(page)?.[1];
      if (!action) throw new Error(`the provider stopped at ${url}: ${response.status} ${page}`);
      url = new URL(action, url).href;
      form = new URLSearchParams(
        page.includes('name="password"') ? { username: person, password: people[person]!.password } : {},
      );
    }
    const back = new URL(url);
    return t.app.inject({
      url: `${back.pathname}${back.search}`,
      headers: { cookie: `funnel_oidc_state=${stateCookie ?? state.value}` },
    });
  }
  const linkCookieOf = (response: Awaited<ReturnType<typeof signInAtProvider>>) =>
    response.cookies.find((c) => c.name === 'funnel_oidc_link' && c.value !== '');
  const sessionOf = (response: Awaited<ReturnType<typeof signInAtProvider>>) =>
    response.cookies.find((c) => c.name === OPERATOR_COOKIE && c.value !== '');
  const whoAmI = async (value: string) =>
    (
      await t.app.inject({ url: '/api/v1/admin/session', headers: { cookie: `${OPERATOR_COOKIE}=${value}` } })
    ).json();

  it('signs a person in with the role their group maps to, creating their account on first use', async () => {
    person = 'grace';
    const response = await signInAtProvider();
    expect(response.statusCode).toBe(303);
    expect(response.headers.location).toBe('/operator');
    const session = sessionOf(response)!;
    expect(session).toMatchObject({ httpOnly: true, sameSite: 'Strict', path: '/api/v1/admin' });
    expect(await whoAmI(session.value)).toMatchObject({
      signedIn: true,
      oidc: true,
      oidcProvider: 'Example Identity',
      account: { email: 'grace@example.com', displayName: 'Grace Hopper', role: 'admin' },
    });
    const row = await db
      .selectFrom('operator_accounts')
      .selectAll()
      .where('email', '=', 'grace@example.com')
      .executeTakeFirstOrThrow();
    expect(row.oidc_subject).toBe(`${issuer}|grace`);
    expect(row.password_hash).toBeNull();
    const audit = await t.app.inject({
      url: '/api/v1/admin/audit?action=session.sign-in-oidc',
      headers: { cookie: `${OPERATOR_COOKIE}=${session.value}` },
    });
    expect(audit.json().entries[0]).toMatchObject({
      actor: 'grace@example.com',
      outcome: 'allowed',
      details: { role: 'admin' },
    });
  });

  it('refuses a person whose groups map to no role, and audits it', async () => {
    person = 'linus';
    const response = await signInAtProvider();
    expect(response.headers.location).toBe('/operator?signIn=refused');
    expect(sessionOf(response)).toBeUndefined();
    const denied = await db
      .selectFrom('operator_accounts')
      .select('email')
      .where('email', '=', 'linus@example.com')
      .execute();
    expect(denied).toEqual([]);
    const entry = await db
      .selectFrom('operator_audit')
      .selectAll()
      .where('action', '=', 'session.sign-in-oidc')
      .where('outcome', '=', 'denied')
      .executeTakeFirstOrThrow();
    expect(entry.details).toEqual({ reason: 'no-role' });
    expect(entry.actor).toBe('linus@example.com');
  });

  it("refuses an answer that does not carry this browser's state", async () => {
    person = 'grace';
    const response = await signInAtProvider('a-state-from-another-browser');
    expect(response.headers.location).toBe('/operator?signIn=refused');
    expect(sessionOf(response)).toBeUndefined();
  });

  it('follows the provider: a group change changes the role at the next sign-in and ends older sessions', async () => {
    person = 'grace';
    const before = sessionOf(await signInAtProvider())!.value;
    people.grace!.groups = ['funnel-viewers'];
    const after = sessionOf(await signInAtProvider())!.value;
    expect((await whoAmI(after)).account.role).toBe('viewer');
    expect((await whoAmI(before)).signedIn).toBe(false);
    people.grace!.groups = ['funnel-admins'];
  });

  it('refuses a disabled account even when the provider vouches for the person', async () => {
    person = 'grace';
    await db
      .updateTable('operator_accounts')
      .set({ disabled_at: new Date() })
      .where('email', '=', 'grace@example.com')
      .execute();
    const response = await signInAtProvider();
    expect(response.headers.location).toBe('/operator?signIn=refused');
    expect(sessionOf(response)).toBeUndefined();
  });

  describe('a local account the provider names by email', () => {
    let adaId: string;
    let secret: string;
    const codeAt = (ms: number) => hotp(base32Decode(secret), totpStep(ms));
    const adaRow = () =>
      db
        .selectFrom('operator_accounts')
        .selectAll()
        .where('account_id', '=', adaId)
        .executeTakeFirstOrThrow();
    const link = (cookie: string | undefined, payload: object) =>
      t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/oidc/link',
        payload,
        headers: cookie ? { cookie: `funnel_oidc_link=${cookie}` } : {},
      });

    beforeAll(async () => {
      // A local admin with a password and a second factor, set up as in the console.
      const created = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/accounts',
        headers: { authorization: `Bearer ${TOKEN}` },
        payload: { email: 'ada@example.com', displayName: 'Ada', role: 'admin' },
      });
      adaId = created.json().account.accountId;
      const setup = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/account-setup',
        payload: { token: created.json().setupPath.split('#')[1], password: ADA_PASSWORD },
      });
      expect(setup.statusCode).toBe(204);
      const signedIn = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/session',
        payload: { email: 'ada@example.com', password: ADA_PASSWORD },
      });
      const cookie = `${OPERATOR_COOKIE}=${sessionOf(signedIn)!.value}`;
      const start = await t.app.inject({
        method: 'POST',
        url: '/api/v1/admin/me/second-factor',
        headers: { cookie, [CONSOLE_REQUEST_HEADER]: 'fetch' },
      });
      expect(start.statusCode).toBe(200);
      secret = start.json().secret;
      const confirm = await t.app.inject({
        method: 'PUT',
        url: '/api/v1/admin/me/second-factor',
        headers: { cookie },
        payload: { code: codeAt(Date.now()) },
      });
      expect(confirm.statusCode).toBe(200);
    });

    it("refuses a provider user who claims the admin's email unverified, and audits it under their subject", async () => {
      person = 'mallory';
      const response = await signInAtProvider();
      expect(response.headers.location).toBe('/operator?signIn=refused');
      expect(sessionOf(response)).toBeUndefined();
      expect(linkCookieOf(response)).toBeUndefined();
      expect(await adaRow()).toMatchObject({ oidc_subject: null, role: 'admin' });
      const entries = await db
        .selectFrom('operator_audit')
        .select(['actor', 'account_id', 'target_account_id', 'outcome', 'details'])
        .where('action', '=', 'session.sign-in-oidc')
        .where('target_account_id', '=', adaId)
        .execute();
      expect(entries).toEqual([
        {
          actor: `oidc:${issuer}|mallory`,
          account_id: null,
          target_account_id: adaId,
          outcome: 'denied',
          details: { reason: 'unverified-email' },
        },
      ]);
    });

    it('links the verified owner only after her password and second factor, once, and keeps her role', async () => {
      person = 'ada';
      const response = await signInAtProvider();
      expect(response.headers.location).toBe('/operator?signIn=link');
      expect(sessionOf(response)).toBeUndefined();
      const pending = linkCookieOf(response)!.value;
      expect((await adaRow()).oidc_subject).toBeNull();

      // Proof, as at a local sign-in: one answer for a wrong password or a missing code.
      const wrong = await link(pending, { password: 'not her password at all' });
      const noCode = await link(pending, { password: ADA_PASSWORD });
      for (const refused of [wrong, noCode]) {
        expect(refused.statusCode).toBe(401);
        expect(sessionOf(refused)).toBeUndefined();
      }
      // Each answer names its own request; the rest is the same.
      const answer = (refused: typeof wrong) => ({ ...refused.json().error, requestId: undefined });
      expect(answer(noCode)).toEqual(answer(wrong));
      expect((await link(undefined, { password: ADA_PASSWORD })).statusCode).toBe(400);
      expect((await adaRow()).oidc_subject).toBeNull();

      const linked = await link(pending, { password: ADA_PASSWORD, code: codeAt(Date.now() + 30_000) });
      expect(linked.statusCode, linked.body).toBe(204);
      expect(await whoAmI(sessionOf(linked)!.value)).toMatchObject({
        signedIn: true,
        account: { email: 'ada@example.com', role: 'admin' },
      });
      expect(await adaRow()).toMatchObject({ oidc_subject: `${issuer}|ada`, role: 'admin' });
      // The request is spent.
      expect((await link(pending, { password: ADA_PASSWORD })).statusCode).toBe(400);

      // From now on the provider signs her in, without a password, and its viewer group does not demote her.
      const later = await signInAtProvider();
      expect(later.headers.location).toBe('/operator');
      expect((await whoAmI(sessionOf(later)!.value)).account.role).toBe('admin');
      expect((await adaRow()).role).toBe('admin');
      const audit = await db
        .selectFrom('operator_audit')
        .select(['action', 'actor', 'outcome'])
        .where('action', 'in', ['session.link-oidc', 'session.sign-in-oidc'])
        .where((eb) => eb.or([eb('account_id', '=', adaId), eb('target_account_id', '=', adaId)]))
        .orderBy('audit_id')
        .execute();
      expect(audit).toEqual([
        { action: 'session.sign-in-oidc', actor: `oidc:${issuer}|mallory`, outcome: 'denied' },
        { action: 'session.sign-in-oidc', actor: `oidc:${issuer}|ada`, outcome: 'denied' },
        { action: 'session.link-oidc', actor: `oidc:${issuer}|ada`, outcome: 'denied' },
        { action: 'session.link-oidc', actor: `oidc:${issuer}|ada`, outcome: 'denied' },
        { action: 'session.link-oidc', actor: 'ada@example.com', outcome: 'allowed' },
        { action: 'session.sign-in-oidc', actor: 'ada@example.com', outcome: 'allowed' },
      ]);
    });

    it('refuses a second provider identity on a linked account, even with a verified email', async () => {
      people.imposter = { email: 'ada@example.com', name: 'Ada 2', groups: ['funnel-admins'], password: 'x' };
      person = 'imposter';
      const response = await signInAtProvider();
      expect(response.headers.location).toBe('/operator?signIn=refused');
      expect(sessionOf(response)).toBeUndefined();
      expect((await adaRow()).oidc_subject).toBe(`${issuer}|ada`);
    });
  });
});
