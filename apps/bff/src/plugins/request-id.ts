import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import fp from 'fastify-plugin';
import { REQUEST_ID_PATTERN } from '@funnel/contracts/errors';

/** The header a request id comes in on (from a proxy or a client) and goes back out on. */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * Fastify's `genReqId`: the id the caller sent, when it is one we can log and echo safely, so one id follows a
 * request from the proxy through our logs; otherwise a random UUID, unique across replicas and restarts (Fastify's
 * own counter starts at 1 in every process).
 */
export function requestIdOf(raw: IncomingMessage): string {
  const sent = raw.headers[REQUEST_ID_HEADER];
  return typeof sent === 'string' && REQUEST_ID_PATTERN.test(sent) ? sent : randomUUID();
}

/**
 * Every answer carries its request's id in `X-Request-Id`, set on the raw response so that an answer written
 * outside Fastify's reply (an event stream, which hijacks it) carries it too.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', (request, reply, done) => {
      reply.raw.setHeader(REQUEST_ID_HEADER, request.id);
      done();
    });
  },
  { name: 'request-id' },
);
