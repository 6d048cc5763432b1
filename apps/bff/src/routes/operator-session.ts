import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { FastifyRequest } from 'fastify';
import * as z from 'zod';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import {
  AccountSetupSchema,
  OperatorSessionSchema,
  OperatorSignInSchema,
  RecoveryCodesSchema,
  TotpConfirmSchema,
  TotpEnrolmentSchema,
  type OperatorMe,
} from '@funnel/contracts/operators';
import { findAccount } from '@funnel/db/operator-accounts';
import { me, type OperatorAccounts, type SignInResult } from '../admin/operator-accounts.js';
import { operatorRoute } from '../admin/operator-route.js';
import { OPERATOR_COOKIE } from '../plugins/admin-auth.js';
import { HttpError } from '../http-error.js';

/** Sign-in attempts per client address per window: enough for typos, far too few to guess a password and code. */
const SIGN_IN_ATTEMPTS = 10;
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;
export const signInLimit = { rateLimit: { max: SIGN_IN_ATTEMPTS, timeWindow: SIGN_IN_WINDOW_MS } };
/** What a sign-in (local, or proving an account for the identity provider's link) can answer. */
export const signInResponses = {
  204: z.null(),
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  429: ApiErrorSchema,
  503: ApiErrorSchema,
};

/**
 * The one answer to a sign-in that failed, whatever was wrong (ADR 0023): it never says whether the password was
 * right, nor whether the account has a second factor. A held account answers 429 with when to try again.
 */
export function signInRefusal(result: Extract<SignInResult, { ok: false }>): HttpError {
  if (result.reason === 'held') {
    const minutes = Math.max(1, Math.ceil(result.heldForMs / 60_000));
    return new HttpError(
      429,
      'RATE_LIMITED',
      `Too many wrong sign-ins for this account. Try again in ${minutes} minute${minutes === 1 ? '' : 's'}.`,
    );
  }
  return new HttpError(
    401,
    'UNAUTHORIZED',
    'That email, password or code is not right. If your account has a second factor, enter its code too.',
  );
}

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
          'A local account: email and password, and `code` (TOTP, RFC 6238, or one of the ten recovery codes) ' +
          'once a second factor is enrolled. Sets the session cookie `funnel_operator` (an opaque id; HttpOnly, ' +
          'Secure, SameSite=Strict, Path=/api/v1/admin). Anything wrong (email, password, a missing or wrong ' +
          'code) answers the same 401 and sets nothing: it never says whether the password was right. 10 ' +
          'attempts per address per 15 minutes; wrong sign-ins of one account from any addresses hold it with ' +
          'exponential backoff (429 with `Retry-After`, at most 15 minutes; ADR 0023), except from an address it ' +
          'signed in from in the last 30 days. An account whose role needs a second factor ' +
          '(OPERATOR_SECOND_FACTOR_ROLES) and has none gets a session that opens only its enrolment. Audited as ' +
          '`session.sign-in` (allowed or denied; a recovery code is named). Not for machine clients: they send ' +
          'ADMIN_API_TOKEN.',
        tags: ['admin'],
        security: [],
        body: OperatorSignInSchema,
        response: signInResponses,
      },
      config: signInLimit,
    },
    async (request, reply) => {
      const { email, password, code } = request.body;
      const result = await accounts().signIn(email, password, code, request.ip, nowMs());
      if (result.ok) {
        actAs(request, result.account);
        await app.audit(request, {
          action: 'session.sign-in',
          outcome: 'allowed',
          details: signInDetails(result),
        });
        await reply.startOperatorSession(result.account);
        return reply.code(204).send(null);
      }
      await app.audit(request, {
        action: 'session.sign-in',
        outcome: 'denied',
        details: { reason: result.reason },
      });
      if (result.reason === 'held') reply.header('retry-after', Math.ceil(result.heldForMs / 1000));
      throw signInRefusal(result);
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
      return {
        signedIn: true,
        account: { ...me(row), role: session.role },
        ...sso,
        ...(session.mustEnrol ? { secondFactorNeeded: true } : {}),
      };
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
          'The password must be at least 12 characters and hard to guess (zxcvbn score 3 or more, against ' +
          "common passwords, English words, keyboard patterns and the account's own email and name): 400 " +
          'with `fields.password` saying why, and the link still works. Does not sign in. Rate-limited like ' +
          'sign-in; audited as `account.setup`.',
        tags: ['admin'],
        security: [],
        body: AccountSetupSchema,
        response: { 204: z.null(), 400: ApiErrorSchema, 429: ApiErrorSchema, 503: ApiErrorSchema },
      },
      config: signInLimit,
    },
    async (request, reply) => {
      const setup = await accounts().completeSetup(request.body.token, request.body.password, nowMs());
      if (!setup.ok && setup.reason === 'weak') throw HttpError.validation({ password: setup.why });
      if (!setup.ok) {
        throw new HttpError(400, 'VALIDATION_FAILED', 'This set-up link is not valid any more.', {
          token: 'This set-up link was used already or has expired. Ask an admin for a new one.',
        });
      }
      actAs(request, me(setup.row));
      await app.audit(request, { action: 'account.setup', outcome: 'allowed' });
      return reply.code(204).send(null);
    },
  );

  app.post(
    '/admin/me/second-factor',
    operatorRoute('viewer', 'second-factor.start', {
      summary: 'Start enrolling a TOTP second factor',
      description:
        'Answers a new secret, its `otpauth://` URI and that URI as a QR code (`qrSvg`, SVG markup) for an ' +
        'authenticator app; it counts once confirmed with a code (`PUT`). 409 when one is enrolled already. ' +
        'Open to a session that must enrol first (OPERATOR_SECOND_FACTOR_ROLES).',
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
      description:
        'From then on, sign-in asks for a code. Answers ten single-use recovery codes, shown this once (only ' +
        'their hashes are kept): each signs in once instead of a code. The session starts over with the ' +
        'factor, so a session that had to enrol first opens the whole console. 400 with `fields.code` for a ' +
        'wrong code.',
      body: TotpConfirmSchema,
      response: { 200: RecoveryCodesSchema, 400: ApiErrorSchema },
    }),
    async (request, reply) => {
      const accountId = request.operator?.accountId;
      const recoveryCodes = accountId
        ? await accounts().confirmTotp(accountId, request.body.code, nowMs())
        : undefined;
      const row = accountId ? await findAccount(accounts().db, { accountId }) : undefined;
      if (!recoveryCodes || !row) {
        throw HttpError.validation({ code: 'That code is not right. Enter the one your app shows now.' });
      }
      await reply.endOperatorSession();
      await reply.startOperatorSession(me(row));
      return { recoveryCodes };
    },
  );
};

/** What a sign-in's audit entry records: which second factor it used, and the recovery codes left after one. */
function signInDetails(result: Extract<SignInResult, { ok: true }>): Record<string, unknown> {
  if (result.secondFactor !== 'recovery-code') return { secondFactor: result.secondFactor };
  return { secondFactor: 'recovery-code', recoveryCodesLeft: result.recoveryCodesLeft };
}

export default operatorSessionRoutes;
