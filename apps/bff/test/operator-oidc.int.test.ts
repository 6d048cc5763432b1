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
};

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
});
