import fp from 'fastify-plugin';
import type { FastifyError } from 'fastify';
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
      request.log.error({ err: error }, 'request failed');
      return reply.code(500).send(body('INTERNAL', 'Something went wrong on our side. Please try again.'));
    });

    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send(body('NOT_FOUND', 'Not found.'));
    });
  },
  { name: 'error-handler' },
);
