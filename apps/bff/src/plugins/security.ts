import { createHmac } from 'node:crypto';
import fp from 'fastify-plugin';
import helmet from 'helmet';
import rateLimit, { normalizeIP } from '@fastify/rate-limit';
import { consentScriptSources, type ConsentScripts } from '../consent/consent-scripts.js';
import { HttpError } from '../http-error.js';

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * False for a route whose answers are never rendered as a document (the event stream): it gets
     * `X-Content-Type-Options` only, not the CSP and framing headers, which a held stream would keep in memory.
     */
    documentHeaders?: boolean;
  }
}

export interface SecurityOptions {
  keyPrefix: string;
  /**
   * Keys the limiter's per-address counters (HMAC-SHA256), so no client address is stored in Redis or its files
   * (an IP address names a person's connection; docs/adr/0014).
   */
  addressKeySecret: string;
  /** False only when measuring the limiter's cost: routes' `config.rateLimit` is then ignored. */
  rateLimitEnabled: boolean;
  rateLimitMax: number;
  rateLimitWindowMs: number;
  /** The enabled consent-certification scripts, whose hosts (and only theirs) the CSP adds. */
  consentScripts: ConsentScripts;
  /** The hashes of the web pages' inline scripts (`'sha256-…'`, from the build: plugins/web-app.ts). */
  inlineScriptHashes?: readonly string[];
}

/**
 * Security headers with a strict CSP, and rate limits kept in Redis so every BFF instance shares the same
 * counters. Routes opt in with `config.rateLimit`. The CSP names a third-party host only for a consent script
 * the deployment enables (TrustedForm, Jornaya).
 */
export default fp<SecurityOptions>(
  async (app, options) => {
    const thirdParty = consentScriptSources(options.consentScripts);
    // Built once: @fastify/helmet rebuilt this middleware (parsing every CSP directive) on each request.
    const securityHeaders = helmet({
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'", ...(options.inlineScriptHashes ?? []), ...thirdParty.scriptSrc],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:', ...thirdParty.imgSrc],
          fontSrc: ["'self'"],
          connectSrc: ["'self'", ...thirdParty.connectSrc],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
        },
      },
      strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
      // The same rule as `frame-ancestors 'none'` for browsers that only read X-Frame-Options: never framed.
      xFrameOptions: { action: 'deny' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });
    app.addHook('onRequest', (request, reply, done) => {
      if (request.routeOptions.config.documentHeaders === false) {
        reply.raw.setHeader('x-content-type-options', 'nosniff');
        return done();
      }
      securityHeaders(request.raw, reply.raw, (err) => done(err as Error | undefined));
    });

    // API answers carry a visitor's lead (or say whether one exists): no cache, shared or private, may keep them.
    // A route that is safe to cache (the public configuration) sets its own Cache-Control.
    app.addHook('onSend', (request, reply, payload, done) => {
      if (request.url.startsWith('/api/') && !reply.hasHeader('cache-control')) {
        reply.header('cache-control', 'no-store');
      }
      done(null, payload);
    });

    if (!options.rateLimitEnabled) {
      // Routes that build their own limiter (the partner API) get one that lets everything through.
      app.decorate('rateLimit', () => async () => undefined);
      return;
    }
    // Its own connection, auto-pipelined: the counters of requests arriving together go to Redis in one write.
    const limiterRedis = app.redis.duplicate({ enableAutoPipelining: true, lazyConnect: false });
    // Outages are logged once by the main connection's watcher; the limiter lets requests through meanwhile.
    limiterRedis.on('error', () => undefined);
    app.addHook('onClose', async () => {
      await limiterRedis.quit().catch(() => limiterRedis.disconnect());
    });
    await app.register(rateLimit, {
      global: false,
      redis: limiterRedis,
      nameSpace: `${options.keyPrefix}rate-limit:`,
      max: options.rateLimitMax,
      timeWindow: options.rateLimitWindowMs,
      skipOnError: true,
      keyGenerator: (request) => keyedAddress(clientKey(request), options.addressKeySecret),
      errorResponseBuilder: (_request, context) =>
        new HttpError(429, 'RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`),
    });
  },
  { name: 'security', dependencies: ['redis'] },
);

/** An address as the limiter stores it: keyed, so the key names nobody and cannot be reversed by enumeration. */
function keyedAddress(address: string, secret: string): string {
  return createHmac('sha256', secret).update(`rate-limit:${address}`).digest('base64url').slice(0, 32);
}

/**
 * The limiter's key for a request: its client address, IPv6 grouped by /64 as the limiter does. A request whose
 * socket closed before it was routed has no address; the limiter's own key function throws on it (an error line
 * with a stack for every such client), so it shares one key instead.
 */
function clientKey(request: { ip: string | undefined }): string {
  const ip = request.ip;
  if (!ip) return 'no-address';
  try {
    return normalizeIP(ip, 64);
  } catch {
    return ip;
  }
}
