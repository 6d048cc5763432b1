import fp from 'fastify-plugin';
import type { FastifyError, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError, ErrorCode } from '@funnel/contracts/errors';
import { HttpError } from '../http-error.js';

const CODE_BY_STATUS: Record<number, ErrorCode> = {
  401: 'UNAUTHORIZED',
  404: 'NOT_FOUND',
  409: 'CONFLICT',
  413: 'PAYLOAD_TOO_LARGE',
  429: 'RATE_LIMITED',
};

function body(code: ErrorCode, message: string, fields?: Record<string, string>): ApiError {
  return { error: fields ? { code, message, fields } : { code, message } };
}

/** Seconds a client should wait before retrying while Redis is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_S = 2;

// What ioredis throws when Redis is unreachable with no offline queue, after its retry, or on a timeout.
const UNAVAILABLE =
  /Stream isn't writeable|Connection is closed|Command timed out|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|LOADING|max retries per request|Reached the max retries/i;

/** True when `error` says the store is unreachable (a 503 to retry), not that the request or our code is wrong. */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return error.name === 'MaxRetriesPerRequestError' || UNAVAILABLE.test(error.message);
}

/** The lead a failed request was about, for the error line: never the person, only the id. */
function leadIdOf(error: unknown, request: FastifyRequest): string | undefined {
  const fromError = (error as { leadId?: unknown }).leadId;
  if (typeof fromError === 'string') return fromError;
  const fromParams = (request.params as { leadId?: unknown } | undefined)?.leadId;
  if (typeof fromParams === 'string') return fromParams;
  return request.sessionLeadId?.();
}

/** The single error handler: every failure leaves the API in the shape of `ApiErrorSchema`. */
export default fp(
  async (app) => {
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof HttpError) {
        return reply.code(error.statusCode).send(body(error.code, error.message, error.fields));
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const fields: Record<string, string> = {};
        for (const issue of error.validation) {
          const key = issue.instancePath.split('/').filter(Boolean)[0] ?? '_';
          fields[key] ??= issue.message ?? 'Invalid value.';
        }
        return reply
          .code(400)
          .send(body('VALIDATION_FAILED', Object.values(fields)[0] ?? 'Invalid request.', fields));
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        const code = CODE_BY_STATUS[status] ?? 'VALIDATION_FAILED';
        return reply.code(status).send(body(code, error.message));
      }
      const leadId = leadIdOf(error, request);
      if (isStoreUnavailable(error)) {
        // Logged once by the connection's watcher, not once per request.
        request.log.debug({ leadId, err: error.message }, 'request failed: redis unavailable');
        return reply
          .code(503)
          .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S))
          .send(
            body('UNAVAILABLE', 'The service is briefly unavailable. Please try again in a few seconds.'),
          );
      }
      request.log.error({ err: error, ...(leadId ? { leadId } : {}) }, 'request failed');
      return reply.code(500).send(body('INTERNAL', 'Something went wrong on our side. Please try again.'));
    });

    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send(body('NOT_FOUND', 'Not found.'));
    });
  },
  { name: 'error-handler' },
);
