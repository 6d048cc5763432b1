import type { FastifyError, FastifyInstance } from 'fastify';
import type { ApiError, ErrorCode } from '@funnel/contracts/errors';

/** The project's one error shape, `{ error: { code, message, fields? } }`. */
export function errorBody(code: ErrorCode, message: string, fields?: Record<string, string>): ApiError {
  return { error: fields ? { code, message, fields } : { code, message } };
}

/**
 * Installs the single error and not-found handler on the root instance (so every route plugin inherits it):
 * Fastify's own 4xx (bad JSON, wrong content type, body too large) keep their status, anything else is a 500
 * with a generic message and the details in the log.
 */
export function installErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode ?? 500;
    if (status >= 400 && status < 500) {
      const code: ErrorCode =
        status === 404 ? 'NOT_FOUND' : status === 413 ? 'PAYLOAD_TOO_LARGE' : 'VALIDATION_FAILED';
      return reply.code(status).send(errorBody(code, error.message));
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send(errorBody('INTERNAL', 'The sandbox failed to answer.'));
  });
  app.setNotFoundHandler((_request, reply) => reply.code(404).send(errorBody('NOT_FOUND', 'Not found.')));
}
