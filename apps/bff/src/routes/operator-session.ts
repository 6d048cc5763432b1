import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { OperatorSessionSchema, OperatorSignInSchema } from '@funnel/contracts/reports';
import { OPERATOR_SESSION_SECONDS } from '../admin/operator-cookie.js';
import { HttpError } from '../http-error.js';

/** Sign-in attempts per client address per window: enough for typos, far too few to guess a 32+ character token. */
const SIGN_IN_ATTEMPTS = 10;
const SIGN_IN_WINDOW_MS = 15 * 60 * 1000;

/**
 * The operator page's session (ADR 0010): the operator token is posted once and exchanged for a separate
 * signed operator cookie, so the page never keeps the token in browser storage.
 */
const operatorSessionRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/admin/session',
    {
      schema: {
        summary: 'Sign in to the operator page',
        description:
          'Exchanges the operator token (ADMIN_API_TOKEN) for the operator cookie `funnel_operator`: signed, ' +
          `HttpOnly, Secure, SameSite=Strict, Path=/api/v1/admin, valid ${OPERATOR_SESSION_SECONDS / 3600} ` +
          'hours from sign-in. The read-only operator endpoints (the reports) accept it instead of the bearer ' +
          'token. A wrong token answers 401 and sets nothing; attempts are rate-limited per address.',
        tags: ['admin'],
        security: [],
        body: OperatorSignInSchema,
        response: { 204: z.null(), 400: ApiErrorSchema, 401: ApiErrorSchema, 429: ApiErrorSchema },
      },
      config: { rateLimit: { max: SIGN_IN_ATTEMPTS, timeWindow: SIGN_IN_WINDOW_MS } },
    },
    async (request, reply) => {
      if (!app.isOperatorToken(request.body.token)) {
        throw new HttpError(401, 'UNAUTHORIZED', 'That operator token is not valid.');
      }
      reply.startOperatorSession();
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/admin/session',
    {
      schema: {
        summary: 'Whether this browser holds a valid operator cookie',
        tags: ['admin'],
        security: [{ operatorSession: [] }],
        response: { 200: OperatorSessionSchema },
      },
    },
    async (request) => ({ signedIn: request.hasOperatorSession() }),
  );

  app.delete(
    '/admin/session',
    {
      schema: {
        summary: 'Sign out of the operator page',
        description: 'Clears the operator cookie. Always 204.',
        tags: ['admin'],
        security: [{ operatorSession: [] }],
        response: { 204: z.null() },
      },
    },
    async (_request, reply) => {
      reply.endOperatorSession();
      return reply.code(204).send(null);
    },
  );
};

export default operatorSessionRoutes;
