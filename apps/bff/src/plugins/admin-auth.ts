import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  OPERATOR_COOKIE,
  OPERATOR_COOKIE_PATH,
  OPERATOR_SESSION_SECONDS,
  OperatorCookie,
} from '../admin/operator-cookie.js';
import { HttpError } from '../http-error.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * An `onRequest` hook for operator routes: lets through `Authorization: Bearer <ADMIN_API_TOKEN>` only,
     * answering 401 to anything else (and to everyone when no token is configured).
     */
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /**
     * The same for read-only operator routes (the reports): the bearer token, or a valid operator cookie set
     * by `POST /api/v1/admin/session`.
     */
    requireOperator(request: FastifyRequest, reply: FastifyReply): Promise<void>;
    /** True when `token` is the operator token (hashed, compared in constant time); false when none is set. */
    isOperatorToken(token: string): boolean;
  }
  interface FastifyRequest {
    /** True when the request carries a valid, unexpired operator cookie. */
    hasOperatorSession(): boolean;
  }
  interface FastifyReply {
    /** Sets a fresh operator cookie: signed, HttpOnly, SameSite=Strict, scoped to the admin API, 8 hours. */
    startOperatorSession(): void;
    endOperatorSession(): void;
  }
}

export interface AdminAuthOptions {
  token: string | undefined;
  /** COOKIE_SECRETS: the first signs operator cookies, all verify. */
  cookieSecrets: string[];
  /** COOKIE_SECURE, as for the borrower's cookie (false only for plain-HTTP development). */
  secure: boolean;
  now: () => Date;
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Operator authentication for /api/v1/admin/*. Only the SHA-256 of the token is held after start, and the
 * presented token's hash is compared in constant time: equal-length digests, so neither the comparison's
 * timing nor an early length mismatch tells anything about the token. The operator page signs in once with the
 * token and then holds a separate operator cookie (ADR 0010), which the read-only routes accept.
 */
export default fp<AdminAuthOptions>(
  async (app, { token, cookieSecrets, secure, now }) => {
    const expected = token ? sha256(token) : undefined;
    if (!expected) app.log.info('ADMIN_API_TOKEN is not set: the operator endpoints answer 401');
    const cookies = expected ? new OperatorCookie(cookieSecrets, expected) : undefined;

    const isOperatorToken = (presented: string): boolean =>
      expected !== undefined && timingSafeEqual(sha256(presented), expected);
    const bearerOk = (request: FastifyRequest): boolean => {
      const presented = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '')?.[1];
      return presented !== undefined && isOperatorToken(presented);
    };
    const unauthorized = (reply: FastifyReply): HttpError => {
      reply.header('www-authenticate', 'Bearer');
      return new HttpError(401, 'UNAUTHORIZED', 'A valid operator token is required.');
    };

    app.decorate('isOperatorToken', isOperatorToken);
    app.decorateRequest('hasOperatorSession', function () {
      const value = this.cookies[OPERATOR_COOKIE];
      return cookies !== undefined && value !== undefined && cookies.verify(value, now().getTime());
    });
    const cookieOptions = { httpOnly: true, secure, sameSite: 'strict', path: OPERATOR_COOKIE_PATH } as const;
    app.decorateReply('startOperatorSession', function () {
      if (!cookies) throw new Error('no operator token is configured');
      this.setCookie(OPERATOR_COOKIE, cookies.issue(now().getTime()), {
        ...cookieOptions,
        maxAge: OPERATOR_SESSION_SECONDS,
      });
    });
    app.decorateReply('endOperatorSession', function () {
      this.clearCookie(OPERATOR_COOKIE, cookieOptions);
    });

    app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      if (bearerOk(request)) return;
      throw unauthorized(reply);
    });
    app.decorate('requireOperator', async (request: FastifyRequest, reply: FastifyReply) => {
      if (bearerOk(request) || request.hasOperatorSession()) return;
      throw unauthorized(reply);
    });
  },
  { name: 'admin-auth', dependencies: ['lead-session'] },
);
