// A real OpenID Provider for the console's sign-in tests (ADR 0021): `oidc-provider` (OpenID Certified), started
// on a free port, with its own sign-in and consent pages. They are plain HTML forms, so a test fills them as a
// person at the provider would: a browser test clicks them, an integration test posts them.
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/** One person in the provider's directory; `groups` is the claim the console maps to a role. */
export interface OidcPerson {
  email: string;
  name: string;
  groups: string[];
  password: string;
  /** The `email_verified` claim: true unless set; `'absent'` leaves it out, as some providers do. */
  emailVerified?: boolean | 'absent';
}

export interface OidcClient {
  clientId: string;
  clientSecret: string;
  redirectUri: string;
}

export interface TestOidcProvider {
  /** `http://127.0.0.1:<port>`, the issuer the BFF discovers. */
  issuer: string;
  close(): Promise<void>;
}

/** The heading of the provider's sign-in page, for tests to wait on. */
export const PROVIDER_SIGN_IN_HEADING = 'Example Identity: sign in';

/**
 * Starts the provider. `people` is read at each request, so a test can change someone's groups between two
 * sign-ins. Usernames are the keys of `people`.
 */
export async function startOidcProvider(
  client: OidcClient,
  people: Record<string, OidcPerson>,
): Promise<TestOidcProvider> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const provider = new Provider(issuer, {
    clients: [
      {
        client_id: client.clientId,
        client_secret: client.clientSecret,
        redirect_uris: [client.redirectUri],
        grant_types: ['authorization_code'],
        response_types: ['code'],
      },
    ],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
    scopes: ['openid', 'email', 'profile', 'groups'],
    findAccount: (_ctx, sub) => {
      const person = people[sub];
      if (!person) return undefined;
      const { email, name, groups, emailVerified = true } = person;
      const verified = emailVerified === 'absent' ? {} : { email_verified: emailVerified };
      return { accountId: sub, claims: () => ({ sub, email, ...verified, name, groups }) };
    },
    features: { devInteractions: { enabled: false } },
    interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
    cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
    pkce: { required: () => true },
    // Set, so the provider does not warn about its defaults on every sign-in.
    ttl: {
      Session: 3600,
      Grant: 3600,
      Interaction: 600,
      AuthorizationCode: 60,
      AccessToken: 600,
      IdToken: 600,
    },
  });
  const callback = provider.callback();

  async function interaction(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const details = await provider.interactionDetails(req, res);
    const uid = details.uid;
    if (req.method === 'GET') {
      const page = details.prompt.name === 'login' ? signInPage(uid) : consentPage(uid, details.params.scope);
      return send(res, 200, page);
    }
    const form = new URLSearchParams(await readBody(req));
    if (req.url?.endsWith('/login')) {
      const username = form.get('username') ?? '';
      if (people[username]?.password !== form.get('password')) {
        return send(res, 200, signInPage(uid, 'That username and password do not match.'));
      }
      await provider.interactionFinished(
        req,
        res,
        { login: { accountId: username } },
        { mergeWithLastSubmission: false },
      );
      return;
    }
    const grant = new provider.Grant({ accountId: details.session!.accountId, clientId: client.clientId });
    grant.addOIDCScope(String(details.params.scope));
    await provider.interactionFinished(
      req,
      res,
      { consent: { grantId: await grant.save() } },
      { mergeWithLastSubmission: true },
    );
  }

  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
    interaction(req, res).catch((error: unknown) => send(res, 500, `<p>${escape(String(error))}</p>`));
  });
  return {
    issuer,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function signInPage(uid: string, error?: string): string {
  return html(
    PROVIDER_SIGN_IN_HEADING,
    `${error ? `<p role="alert">${escape(error)}</p>` : ''}
    <form method="post" action="/interaction/${uid}/login">
      <label>Username <input name="username" autocomplete="username"></label>
      <label>Password <input name="password" type="password" autocomplete="current-password"></label>
      <button type="submit">Sign in</button>
    </form>`,
  );
}

function consentPage(uid: string, scope: unknown): string {
  return html(
    'Example Identity: share your details?',
    `<p>The application asks for: ${escape(String(scope))}.</p>
    <form method="post" action="/interaction/${uid}/confirm"><button type="submit">Allow</button></form>`,
  );
}

function html(title: string, body: string): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${title}</title></head><body><main><h1>${title}</h1>${body}</main></body></html>`;
}

function send(res: ServerResponse, status: number, page: string): void {
  if (res.headersSent) return void res.end();
  res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' }).end(page);
}

function escape(text: string): string {
  return text.replace(/[&<>"]/g, (c) => `&#${c.charCodeAt(0)};`);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}
