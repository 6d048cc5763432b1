import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { OidcLinkSchema } from '@funnel/contracts/operators';
import { providerActor, type OidcSignIn } from '../admin/oidc-sign-in.js';
import { HttpError } from '../http-error.js';
import { signInLimit, signInRefusal, signInResponses } from './operator-session.js';

/** The short-lived cookie that ties the provider's answer to the browser that asked (its `state`). */
const STATE_COOKIE = 'funnel_oidc_state';
/** The pending link of a provider's person to the local account their email names, until its owner proves it. */
const LINK_COOKIE = 'funnel_oidc_link';
const STATE_PATH = '/api/v1/admin/oidc';

export interface OperatorOidcRoutesOptions {
  signIn: OidcSignIn;
  secure: boolean;
  now: () => Date;
}

/**
 * Sign-in through the organisation's identity provider (ADR 0021): `start` sends the browser to the provider,
 * `callback` takes its answer, starts the console session and sends the browser back to `/operator`. A person
 * whose groups map to no role, or whose account is disabled, comes back signed out with `?signIn=refused`. One
 * whose email names a local account comes back with `?signIn=link`, to prove that account once (`link`, ADR 0023).
 */
const operatorOidcRoutes: FastifyPluginAsyncZod<OperatorOidcRoutesOptions> = async (
  app,
  { signIn, secure, now },
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
          'to a role (`OIDC_ROLE_MAP`), creates the account on first use (only for `email_verified: true`), ' +
          'starts the console session and redirects to `/operator`. When the email names a local account, ' +
          'nothing is linked: with a verified email it redirects to `/operator?signIn=link` (the owner proves ' +
          'the account with `POST /admin/oidc/link`), otherwise it refuses. A local account keeps its role ' +
          'unless OIDC_SYNC_LOCAL_ROLES is on. Audited as `session.sign-in-oidc`; a refused claim on an ' +
          "account is audited under the provider's subject (`oidc:<issuer>|<sub>`), never the account's name.",
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
        // The provider vouched for who this is, so a refusal names them (a local sign-in's typed email is not);
        // a claim on an existing account names the provider's subject: the account's owner did nothing.
        await app.audit(request, {
          action: 'session.sign-in-oidc',
          outcome: 'denied',
          details: { reason: result.reason },
          ...('email' in result && result.email ? { actor: result.email } : {}),
          ...('subject' in result ? { actor: providerActor(result.subject) } : {}),
          ...('targetAccountId' in result && result.targetAccountId
            ? { targetAccountId: result.targetAccountId }
            : {}),
        });
        if (result.reason !== 'link-needs-proof') return reply.redirect('/operator?signIn=refused', 303);
        reply.setCookie(LINK_COOKIE, result.linkToken, { ...stateCookie, maxAge: 600 });
        return reply.redirect('/operator?signIn=link', 303);
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
      await reply.startOperatorSession(result.account, 'provider');
      return reply.redirect('/operator', 303);
    },
  );

  app.post(
    '/admin/oidc/link',
    {
      schema: {
        summary: "Link the provider's sign-in to your console account, proving the account once",
        description:
          "After the callback redirected to `/operator?signIn=link`: the account's password and, when a second " +
          'factor is enrolled, its code (or a recovery code). Links the account to the person at the provider ' +
          'and starts the console session; later sign-ins through the provider need no password. Checked as a ' +
          'local sign-in: one 401 for anything wrong, the same per-account lockout (429). 400 when there is no ' +
          'pending link (10 minutes after the callback). Audited as `session.link-oidc`; a refusal under the ' +
          "provider's subject.",
        tags: ['admin'],
        security: [],
        body: OidcLinkSchema,
        response: signInResponses,
      },
      config: signInLimit,
    },
    async (request, reply) => {
      const accounts = app.operatorAccounts;
      if (!accounts) throw new HttpError(503, 'UNAVAILABLE', 'Operator accounts need a system of record.');
      const result = await signIn.link(
        request.cookies[LINK_COOKIE],
        request.body,
        accounts,
        request.ip,
        now().getTime(),
      );
      if (!result.ok && result.reason === 'expired') {
        throw new HttpError(
          400,
          'BAD_REQUEST',
          'This request to link your account has expired. Sign in with your organisation again.',
        );
      }
      if (!result.ok) {
        await app.audit(request, {
          action: 'session.link-oidc',
          outcome: 'denied',
          actor: providerActor(result.subject),
          targetAccountId: result.targetAccountId,
          details: { reason: result.reason },
        });
        if (result.reason === 'held') reply.header('retry-after', Math.ceil(result.heldForMs / 1000));
        throw result.reason === 'held'
          ? signInRefusal({ ok: false, reason: 'held', heldForMs: result.heldForMs })
          : signInRefusal({ ok: false, reason: 'invalid', heldForMs: 0 });
      }
      reply.clearCookie(LINK_COOKIE, stateCookie);
      request.operator = {
        accountId: result.account.accountId,
        actor: result.account.email,
        role: result.account.role,
      };
      await app.audit(request, {
        action: 'session.link-oidc',
        outcome: 'allowed',
        details: { secondFactor: result.secondFactor },
      });
      await reply.startOperatorSession(result.account);
      return reply.code(204).send(null);
    },
  );
};

export default operatorOidcRoutes;
