import { randomUUID } from 'node:crypto';
import fp from 'fastify-plugin';
import http from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import type { ApiError, ErrorCode } from '@funnel/contracts/errors';
import type { StepName } from '@funnel/contracts/steps';
import { isNotReplicated } from '@funnel/server-runtime/replica-wait';
import { HttpError } from '../http-error.js';
import { REQUEST_ID_HEADER } from './request-id.js';

/**
 * What a client's mistake reads like, by status: a fixed message, never the framework's, which echoes the URL,
 * the content type or the parser's complaint back.
 */
const CLIENT_ERRORS: Record<number, readonly [ErrorCode, string]> = {
  400: ['BAD_REQUEST', 'The request is malformed.'],
  401: ['UNAUTHORIZED', 'Sign in to use this endpoint.'],
  404: ['NOT_FOUND', 'Not found.'],
  405: ['METHOD_NOT_ALLOWED', 'This method is not allowed here.'],
  408: ['REQUEST_TIMEOUT', 'The request took too long to arrive.'],
  409: ['CONFLICT', 'The request conflicts with the current state.'],
  413: ['PAYLOAD_TOO_LARGE', 'The request body is too large.'],
  414: ['URI_TOO_LONG', 'The request URL is too long.'],
  415: ['UNSUPPORTED_MEDIA_TYPE', 'Send the request body as JSON (Content-Type: application/json).'],
  429: ['RATE_LIMITED', 'Too many requests. Please try again later.'],
  431: ['HEADERS_TOO_LARGE', 'The request headers are too large.'],
};

/** Fastify's own codes whose fixed message says more than the status does. */
const MESSAGE_BY_FASTIFY_CODE: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: 'The request body is not valid JSON.',
  FST_ERR_CTP_EMPTY_JSON_BODY: 'The request body is empty; send a JSON object.',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: 'The request body does not match its Content-Length.',
  FST_ERR_BAD_URL: 'The request URL is not valid.',
};

/** The one error shape for a client error of `status`, whatever raised it, for the request `requestId`. */
export function clientErrorBody(requestId: string, status: number, fastifyCode?: string): ApiError {
  const [code, message] = CLIENT_ERRORS[status] ?? CLIENT_ERRORS[400]!;
  return body(requestId, code, (fastifyCode && MESSAGE_BY_FASTIFY_CODE[fastifyCode]) ?? message);
}

function body(
  requestId: string,
  code: ErrorCode,
  message: string,
  extra: {
    fields?: Record<string, string> | undefined;
    leadId?: string | undefined;
    nextStep?: StepName;
  } = {},
): ApiError {
  return {
    error: {
      code,
      message,
      ...(extra.fields ? { fields: extra.fields } : {}),
      ...(extra.leadId ? { leadId: extra.leadId } : {}),
      ...(extra.nextStep ? { nextStep: extra.nextStep } : {}),
      requestId,
    },
  };
}

/** Seconds a client should wait before retrying while Redis is unavailable. */
export const UNAVAILABLE_RETRY_AFTER_S = 2;

// What ioredis throws when Redis is unreachable with no offline queue, after its retry, or on a timeout.
// "Command aborted due to connection close": the primary died with the command in flight (a failover).
const UNAVAILABLE =
  /Stream isn't writeable|Connection is closed|Command aborted due to connection close|All sentinels are unreachable|Command timed out|ECONNREFUSED|ECONNRESET|ETIMEDOUT|EPIPE|LOADING|max retries per request|Reached the max retries/i;

/**
 * True when `error` says the store is unreachable (a 503 to retry), not that the request or our code is wrong:
 * also a write its replicas did not confirm (docs/adr/0018), and a demoted primary's READONLY mid-failover.
 */
export function isStoreUnavailable(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return (
    error.name === 'MaxRetriesPerRequestError' ||
    UNAVAILABLE.test(error.message) ||
    isNotReplicated(error) ||
    error.message.startsWith('READONLY')
  );
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
    // HTTP/1.1 requires a Host header (RFC 9112, 3.2): a request without one is malformed. HTTP/1.0 may omit it.
    app.addHook('onRequest', async (request) => {
      if (request.raw.httpVersion === '1.1' && request.headers.host === undefined) {
        throw new HttpError(400, 'BAD_REQUEST', 'The request has no Host header.');
      }
    });
    app.setErrorHandler((error: FastifyError, request, reply) => {
      if (error instanceof HttpError) {
        return reply.code(error.statusCode).send(
          body(request.id, error.code, error.message, {
            fields: error.fields,
            leadId: error.leadId,
            ...(error.nextStep ? { nextStep: error.nextStep } : {}),
          }),
        );
      }
      if (hasZodFastifySchemaValidationErrors(error)) {
        const fields: Record<string, string> = {};
        for (const issue of error.validation) {
          const key = issue.instancePath.split('/').filter(Boolean)[0] ?? '_';
          fields[key] ??= issue.message ?? 'Invalid value.';
        }
        return reply
          .code(400)
          .send(
            body(request.id, 'VALIDATION_FAILED', Object.values(fields)[0] ?? 'Invalid request.', { fields }),
          );
      }
      const status = error.statusCode ?? 500;
      if (status >= 400 && status < 500) {
        // A client's malformed request: worth a debug line, never an error with a stack.
        request.log.debug({ code: error.code, statusCode: status }, 'client error');
        return reply.code(status).send(clientErrorBody(request.id, status, error.code));
      }
      const leadId = leadIdOf(error, request);
      if (isStoreUnavailable(error)) {
        // Logged once by the connection's watcher, not once per request.
        request.log.debug({ leadId, err: error.message }, 'request failed: redis unavailable');
        return reply
          .code(503)
          .header('retry-after', String(UNAVAILABLE_RETRY_AFTER_S))
          .send(
            body(
              request.id,
              'UNAVAILABLE',
              'The service is briefly unavailable. Please try again in a few seconds.',
            ),
          );
      }
      request.log.error({ err: error, ...(leadId ? { leadId } : {}) }, 'request failed');
      return reply
        .code(500)
        .send(body(request.id, 'INTERNAL', 'Something went wrong on our side. Please try again.'));
    });

    app.setNotFoundHandler((request, reply) => {
      reply.code(404).send(clientErrorBody(request.id, 404));
    });
  },
  { name: 'error-handler' },
);

/**
 * Fastify's router errors (a URL that does not decode, a path parameter over the router's limit), answered in the
 * one error shape before any route runs. Fastify's own answer echoes the whole path back.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) => {
  const status = error.code === 'FST_ERR_MAX_PARAM_LENGTH' ? 414 : (error.statusCode ?? 400);
  request.log.debug({ code: error.code, statusCode: status }, 'client error');
  // Router errors come before the onRequest hooks that set it on every other answer.
  reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
  void reply.code(status).send(clientErrorBody(request.id, status, error.code));
};

/**
 * Errors Node's HTTP parser raises before Fastify sees a request (a header block over the limit, a stray byte
 * after a body, bytes that are not HTTP): answered in the one error shape, logged at debug, and the socket closed.
 * There is no request to take an id from: the answer gets a new one, on its log line too.
 */
export function clientErrorHandler(
  this: { log: FastifyRequest['log'] },
  error: NodeJS.ErrnoException,
  socket: Socket,
): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const status =
    error.code === 'HPE_HEADER_OVERFLOW' ? 431 : error.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? 408 : 400;
  const requestId = randomUUID();
  this.log.debug({ reqId: requestId, code: error.code, statusCode: status }, 'client error');
  if (socket.writable) {
    const payload = JSON.stringify(clientErrorBody(requestId, status));
    socket.write(
      `HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n` +
        `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(payload)}\r\n` +
        `X-Request-Id: ${requestId}\r\n` +
        `Cache-Control: no-store\r\nConnection: close\r\n\r\n${payload}`,
    );
  }
  socket.destroy();
}
