import fp from 'fastify-plugin';
import helmet from '@fastify/helmet';
import rateLimit from '@fastify/rate-limit';
import { HttpError } from '../http-error.js';

export interface SecurityOptions {
  keyPrefix: string;
  rateLimitMax: number;
  rateLimitWindowMs: number;
}

/**
 * Security headers with a strict CSP, and rate limits kept in Redis so every BFF instance shares the same
 * counters. Routes opt in with `config.rateLimit`.
 */
export default fp<SecurityOptions>(
  async (app, options) => {
    await app.register(helmet, {
      contentSecurityPolicy: {
        useDefaults: false,
        directives: {
          defaultSrc: ["'self'"],
          scriptSrc: ["'self'"],
          styleSrc: ["'self'", "'unsafe-inline'"],
          imgSrc: ["'self'", 'data:'],
          fontSrc: ["'self'"],
          connectSrc: ["'self'"],
          formAction: ["'self'"],
          frameAncestors: ["'none'"],
          baseUri: ["'self'"],
          objectSrc: ["'none'"],
        },
      },
      strictTransportSecurity: { maxAge: 31536000, includeSubDomains: true },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    });

    await app.register(rateLimit, {
      global: false,
      redis: app.redis,
      nameSpace: `${options.keyPrefix}rate-limit:`,
      max: options.rateLimitMax,
      timeWindow: options.rateLimitWindowMs,
      skipOnError: true,
      errorResponseBuilder: (_request, context) =>
        new HttpError(429, 'RATE_LIMITED', `Too many requests. Please try again in ${context.after}.`),
    });
  },
  { name: 'security', dependencies: ['redis'] },
);
