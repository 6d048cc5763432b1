import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { HttpError } from '../http-error.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * An `onRequest` hook for operator routes: lets through `Authorization: Bearer <ADMIN_API_TOKEN>` only,
     * answering 401 to anything else (and to everyone when no token is configured).
     */
    requireAdmin(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

function sha256(text: string): Buffer {
  return createHash('sha256').update(text).digest();
}

/**
 * Operator authentication for /api/v1/admin/*. Only the SHA-256 of the token is held after start, and the
 * presented token's hash is compared in constant time: equal-length digests, so neither the comparison's
 * timing nor an early length mismatch tells anything about the token.
 */
export default fp<{ token: string | undefined }>(
  async (app, { token }) => {
    const expected = token ? sha256(token) : undefined;
    if (!expected) app.log.info('ADMIN_API_TOKEN is not set: the operator endpoints answer 401');

    app.decorate('requireAdmin', async (request: FastifyRequest, reply: FastifyReply) => {
      const match = /^Bearer (\S+)$/.exec(request.headers.authorization ?? '');
      const presented = match?.[1];
      if (expected && presented && timingSafeEqual(sha256(presented), expected)) return;
      reply.header('www-authenticate', 'Bearer');
      throw new HttpError(401, 'UNAUTHORIZED', 'A valid operator token is required.');
    });
  },
  { name: 'admin-auth' },
);
