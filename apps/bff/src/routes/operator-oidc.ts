import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { OidcSignIn } from '../admin/oidc-sign-in.js';

/** The short-lived cookie that ties the provider's answer to the browser that asked (its `state`). */
const STATE_COOKIE = 'funnel_oidc_state';
const STATE_PATH = '/api/v1/admin/oidc';

export interface OperatorOidcRoutesOptions {
  signIn: OidcSignIn;
  secure: boolean;
}

/**
 * Sign-in through the organisation's identity provider (ADR 0021): `start` sends the browser to the provider,
 * `callback` takes its answer, starts the console session and sends the browser back to `/operator`. A person
 * whose groups map to no role, or whose account is disabled, comes back signed out with `?signIn=refused`.
 */
const operatorOidcRoutes: FastifyPluginAsyncZod<OperatorOidcRoutesOptions> = async (
  app,
  { signIn, secure },
) => {
  // Lax, not Strict: the provider's redirect back is a cross-site navigation, which a Strict cookie would miss.
  const stateCookie = { httpOnly: true, secure, sameSite: 'lax', path: STATE_PATH } as const;

  app.get(
    '/admin/oidc/start',
    {
      schema: {
        summary: "Sign in through the organisation's identity provider (OpenID Connect)",
        description:
          'Redirects (302) to the provider with an authorization code request (PKCE S256, state, nonce). 404 ' +
          'when OIDC_ISSUER_URL is not set.',
        tags: ['admin'],
        security: [],
      },
    },
    async (_request, reply) => {
      const { url, state } = await signIn.start();
      reply.setCookie(STATE_COOKIE, state, { ...stateCookie, maxAge: 600 });
      return reply.redirect(url, 302);
    },
  );

  app.get(
    '/admin/oidc/callback',
    {
      schema: {
        summary: "The identity provider's answer",
        description:
          'Exchanges the code (with the PKCE verifier), checks the ID token, maps the `OIDC_ROLE_CLAIM` groups ' +
          'to a role (`OIDC_ROLE_MAP`), creates or links the account on first use, starts the console session ' +
          'and redirects to `/operator`. Audited as `session.sign-in-oidc`.',
        tags: ['admin'],
        security: [],
      },
    },
    async (request, reply) => {
      const url = new URL(request.url, signIn.redirectUrl);
      reply.clearCookie(STATE_COOKIE, stateCookie);
      const result = await signIn.finish(url, request.cookies[STATE_COOKIE]).catch((error: unknown) => {
        request.log.warn({ err: (error as Error).message }, 'OIDC sign-in failed');
        return { ok: false as const, reason: 'state' as const };
      });
      if (!result.ok) {
        // The provider vouched for who this is, so the refusal names them (a local sign-in's typed email is not).
        await app.audit(request, {
          action: 'session.sign-in-oidc',
          outcome: 'denied',
          details: { reason: result.reason },
          ...('email' in result && result.email ? { actor: result.email } : {}),
        });
        return reply.redirect('/operator?signIn=refused', 303);
      }
      request.operator = {
        accountId: result.account.accountId,
        actor: result.account.email,
        role: result.account.role,
      };
      await app.audit(request, {
        action: 'session.sign-in-oidc',
        outcome: 'allowed',
        details: { role: result.account.role },
      });
      if (result.roleChanged) await app.operatorSessions.endAll(result.account.accountId);
      await reply.startOperatorSession(result.account);
      return reply.redirect('/operator', 303);
    },
  );
};

export default operatorOidcRoutes;
