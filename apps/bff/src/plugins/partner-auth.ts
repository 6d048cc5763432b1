import fp from 'fastify-plugin';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { PartnerKeyring, type PartnerIdentity } from '../partner-api/partner-keyring.js';
import type { PartnerApiKey } from '@funnel/lead-store/partner-config';
import { HttpError } from '../http-error.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The partner whose API key authenticated this request; null until `authenticatePartner` ran. */
    partner: PartnerIdentity | null;
  }
  interface FastifyInstance {
    /** An `onRequest` hook: 401 unless the request carries `Authorization: Bearer <a configured key>`. */
    authenticatePartner(request: FastifyRequest, reply: FastifyReply): Promise<void>;
  }
}

const BEARER = /^Bearer\s+(\S+)\s*$/i;

/** The key of an `Authorization: Bearer <key>` header, or undefined. */
export function bearerKey(request: FastifyRequest): string | undefined {
  return BEARER.exec(request.headers.authorization ?? '')?.[1];
}

/** The same answer for a missing and a wrong key: a caller learns nothing about which keys exist. */
function unauthorized(reply: FastifyReply): HttpError {
  reply.header('www-authenticate', 'Bearer realm="partner-api"');
  return new HttpError(401, 'UNAUTHORIZED', 'A valid API key is required: Authorization: Bearer <key>.');
}

/**
 * Authenticates partner (integrator) API keys. Routes opt in with `onRequest: app.authenticatePartner`; it runs
 * before the body is parsed, so a caller without a key never reaches validation, and before the per-partner rate
 * limit, which counts by `request.partner`.
 */
export default fp<{ keys: readonly PartnerApiKey[] }>(
  async (app, { keys }) => {
    const keyring = new PartnerKeyring(keys);
    app.decorateRequest('partner', null);
    app.decorate('authenticatePartner', async (request: FastifyRequest, reply: FastifyReply) => {
      const presented = bearerKey(request);
      const partner = presented ? keyring.identify(presented) : undefined;
      if (!partner) throw unauthorized(reply);
      request.partner = partner;
    });
  },
  { name: 'partner-auth' },
);
