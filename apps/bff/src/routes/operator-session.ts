import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import * as z from 'zod';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import {
  AccountSetupSchema,
  OperatorSessionSchema,
  OperatorSignInSchema,
  TotpConfirmSchema,
  TotpEnrolmentSchema,
  type OperatorMe,
} from '@funnel/contracts/operators';
import { findAccount } from '@funnel/db/operator-accounts';
import { me, type OperatorAccounts } from '../admin/operator-accounts.js';
import { operatorRoute } from '../admin/operator-route.js';
import { OPERATOR_COOKIE } from '../plugins/admin-auth.js';
import { HttpError } from '../http-error.js';

/** Sign-in attempts per client address per window: enough for typos, far too few to guess a password and code. */
const SIGN_IN_ATTEMPTS = 10;
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
const signInLimit = { rateLimit: { max: SIGN_IN_ATTEMPTS, timeWindow: SIGN_IN_WINDOW_MS } };
const ENTER_CODE = 'Enter the 6-digit code from your authenticator app.';

export interface OperatorSessionRoutesOptions {
  /** Whether the organisation's identity provider is configured (`GET /admin/oidc/start`). */
  oidc: boolean;
  /** The provider's name for the sign-in button (OIDC_PROVIDER_NAME). */
  oidcProvider: string | undefined;
  now: () => Date;
}

/**
 * The console's sessions (ADR 0021): local sign-in with a password and, once enrolled, a TOTP code; the
 * one-time set-up link; enrolling the second factor; signing out here or everywhere.
 */
const operatorSessionRoutes: FastifyPluginAsyncZod<OperatorSessionRoutesOptions> = async (app, options) => {
  const accounts = (): OperatorAccounts => {
    if (!app.operatorAccounts) {
      throw new HttpError(503, 'UNAVAILABLE', 'Operator accounts need a system of record: set DATABASE_URL.');
    }
    return app.operatorAccounts;
  };
  const nowMs = () => options.now().getTime();
  /** Names the account in the audit entry of a request made before any session (sign-in, set-up). */
  const actAs = (request: FastifyRequest, account: Pick<OperatorMe, 'accountId' | 'email' | 'role'>) => {
    request.operator = { accountId: account.accountId, actor: account.email, role: account.role };
  };

  app.post(
    '/admin/session',
    {
      schema: {
        summary: 'Sign in to the operator console',
        description:
          'A local account: email and password, and `code` (TOTP, RFC 6238) once a second factor is enrolled. ' +
          'Sets the session cookie `funnel_operator` (an opaque id; HttpOnly, Secure, SameSite=Strict, ' +
          'Path=/api/v1/admin). A right password without a needed code answers 400 with `fields.code`; anything ' +
          'else wrong answers 401 and sets nothing. 10 attempts per address per 15 minutes. Audited as ' +
          '`session.sign-in` (allowed or denied). Not for machine clients: they send ADMIN_API_TOKEN.',
        tags: ['admin'],
        security: [],
        body: OperatorSignInSchema,
        response: {
          204: z.null(),
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          429: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
      config: signInLimit,
    },
    async (request, reply) => {
      const { email, password, code } = request.body;
      const result = await accounts().signIn(email, password, code, nowMs());
      if (result.ok) {
        actAs(request, result.account);
        await app.audit(request, { action: 'session.sign-in', outcome: 'allowed' });
        await reply.startOperatorSession(result.account);
        return reply.code(204).send(null);
      }
      if (result.reason === 'code-required') throw HttpError.validation({ code: ENTER_CODE });
      await app.audit(request, {
        action: 'session.sign-in',
        outcome: 'denied',
        details: { reason: result.reason },
      });
      throw result.reason === 'code-wrong'
        ? new HttpError(
            401,
            'UNAUTHORIZED',
            'That code is not right, or was already used. Try the next one.',
            {
              code: 'That code is not right.',
            },
          )
        : new HttpError(401, 'UNAUTHORIZED', 'That email and password do not match an active account.');
    },
  );

  app.get(
    '/admin/session',
    {
      schema: {
        summary: 'Whether this browser holds a live console session, and whose',
        description:
          'Also says whether sign-in through the identity provider is offered. Any role; not audited.',
        tags: ['admin'],
        security: [{ operatorSession: [] }],
        response: { 200: OperatorSessionSchema },
      },
    },
    async (request) => {
      const id = request.cookies[OPERATOR_COOKIE];
      const session = id ? await app.operatorSessions.touch(id, nowMs()) : undefined;
      const row =
        session && app.operatorAccounts
          ? await findAccount(app.operatorAccounts.db, { accountId: session.accountId })
          : undefined;
      const sso = {
        oidc: options.oidc,
        ...(options.oidc && options.oidcProvider ? { oidcProvider: options.oidcProvider } : {}),
      };
      if (!session || !row || row.disabled_at !== null) return { signedIn: false, ...sso };
      return { signedIn: true, account: { ...me(row), role: session.role }, ...sso };
    },
  );

  app.delete(
    '/admin/session',
    {
      schema: {
        summary: 'Sign out of the console in this browser',
        description: 'Ends the session in Redis and clears its cookie. Always 204.',
        tags: ['admin'],
        security: [{ operatorSession: [] }],
        response: { 204: z.null() },
      },
    },
    async (_request, reply) => {
      await reply.endOperatorSession();
      return reply.code(204).send(null);
    },
  );

  app.delete(
    '/admin/sessions',
    operatorRoute('viewer', 'session.sign-out-everywhere', {
      summary: 'Sign out everywhere: end every session of the signed-in account',
      description: 'Every browser of the account must sign in again. 400 for a machine client (no account).',
      response: { 204: z.null(), 400: ApiErrorSchema },
    }),
    async (request, reply) => {
      const accountId = request.operator?.accountId;
      if (!accountId) throw new HttpError(400, 'BAD_REQUEST', 'A machine client has no sessions to end.');
      await app.operatorSessions.endAll(accountId);
      await reply.endOperatorSession();
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/account-setup',
    {
      schema: {
        summary: "Use a one-time set-up link: choose the account's password",
        description:
          "The token is the set-up link's fragment (`/operator/setup#<token>`), from `npm run " +
          'operator:create-admin` or an admin creating the account. Works once, for 24 hours; 400 otherwise. ' +
          'Does not sign in. Rate-limited like sign-in; audited as `account.setup`.',
        tags: ['admin'],
        security: [],
        body: AccountSetupSchema,
        response: { 204: z.null(), 400: ApiErrorSchema, 429: ApiErrorSchema, 503: ApiErrorSchema },
      },
      config: signInLimit,
    },
    async (request, reply) => {
      const row = await accounts().completeSetup(request.body.token, request.body.password, nowMs());
      if (!row) {
        throw new HttpError(400, 'VALIDATION_FAILED', 'This set-up link is not valid any more.', {
          token: 'This set-up link was used already or has expired. Ask an admin for a new one.',
        });
      }
      actAs(request, me(row));
      await app.audit(request, { action: 'account.setup', outcome: 'allowed' });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/me/second-factor',
    operatorRoute('viewer', 'second-factor.start', {
      summary: 'Start enrolling a TOTP second factor',
      description:
        'Answers a new secret and its `otpauth://` URI for an authenticator app; it counts once confirmed with ' +
        'a code (`PUT`). 409 when one is enrolled already.',
      response: { 200: TotpEnrolmentSchema, 400: ApiErrorSchema, 409: ApiErrorSchema },
    }),
    async (request) => {
      const accountId = request.operator?.accountId;
      if (!accountId) throw new HttpError(400, 'BAD_REQUEST', 'A machine client has no account.');
      const row = await findAccount(accounts().db, { accountId });
      if (!row) throw new HttpError(400, 'BAD_REQUEST', 'This account no longer exists.');
      if (row.totp_sealed) throw new HttpError(409, 'CONFLICT', 'A second factor is enrolled already.');
      return accounts().startTotp(accountId, row.email);
    },
  );

  app.put(
    '/admin/me/second-factor',
    operatorRoute('viewer', 'second-factor.confirm', {
      summary: 'Confirm the second factor with a first code',
      description: 'From then on, sign-in asks for a code. 400 with `fields.code` for a wrong code.',
      body: TotpConfirmSchema,
      response: { 204: z.null(), 400: ApiErrorSchema },
    }),
    async (request, reply) => {
      const accountId = request.operator?.accountId;
      if (!accountId || !(await accounts().confirmTotp(accountId, request.body.code, nowMs()))) {
        throw HttpError.validation({ code: 'That code is not right. Enter the one your app shows now.' });
      }
      return reply.code(204).send(null);
    },
  );
};

export default operatorSessionRoutes;
