import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { SESSION_COOKIE } from './lead-session.js';
import {
  API_VERSION,
  addRequestExamples,
  completeDocument,
  type OpenApiDocument,
} from './openapi-document.js';
import { OPERATOR_COOKIE } from './admin-auth.js';

export interface OpenApiOptions {
  /** Today in the business time zone ('YYYY-MM-DD'): the day the served request examples are valid on. */
  today: () => string;
}

/** OpenAPI 3.1 generated from the zod contracts, served at /api/docs (UI) and /api/docs/json. */
export default fp<OpenApiOptions>(
  async (app, options) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Loan funnel BFF API',
          version: API_VERSION,
          description:
            'The REST API behind the borrower funnel. The visitor is identified by a signed HttpOnly cookie set ' +
            'by POST /api/v1/lead; every other lead call acts on that lead only. Errors share one shape: ' +
            '`{ error: { code, message, fields?, requestId } }` where `fields` maps a field name to the message a ' +
            'person reads and `requestId` repeats the `X-Request-Id` header every answer carries.',
        },
        servers: [{ url: '/', description: 'This BFF (the API is served under /api/v1)' }],
        tags: [
          { name: 'lead', description: "The visitor's own lead" },
          { name: 'lookup', description: 'ZIP and routing-number lookups' },
          { name: 'suggest', description: 'Autocomplete' },
          { name: 'diagnostics', description: 'Browser error reports' },
          { name: 'privacy', description: 'Unsubscribe and do-not-sell requests' },
          { name: 'partners', description: 'The Partners page' },
          { name: 'config', description: 'Public configuration for the web app' },
          {
            name: 'admin',
            description:
              'The operator console: people sign in with their own accounts (roles viewer < manager < admin, each ' +
              'operation says which it needs) and every action is audited; machine clients only send ' +
              'Authorization: Bearer <ADMIN_API_TOKEN>.',
          },
          {
            name: 'partner-api',
            description:
              'Server-to-server lead posting for integrators, authenticated by API key (Authorization: Bearer). ' +
              'Outcome webhooks (`webhooks.leadOutcome`) are signed as Standard Webhooks.',
          },
          {
            name: 'buyer-api',
            description:
              'For buyers of our leads, with their own API key (Authorization: Bearer): return a lead within ' +
              'your return window and under your cap, report a conversion. Idempotent by `Idempotency-Key`.',
          },
        ],
        components: {
          securitySchemes: {
            leadSession: {
              type: 'apiKey',
              in: 'cookie',
              name: SESSION_COOKIE,
              description: "The visitor's signed session cookie, set by POST /api/v1/lead (HttpOnly).",
            },
            partnerApiKey: {
              type: 'http',
              scheme: 'bearer',
              description: 'A partner API key, issued once; we keep only its SHA-256.',
            },
            buyerApiKey: {
              type: 'http',
              scheme: 'bearer',
              description: 'A buyer API key (BUYER_API_KEYS), issued once; we keep only its SHA-256.',
            },
            adminToken: {
              type: 'http',
              scheme: 'bearer',
              description:
                'Machine clients only: the operator token ADMIN_API_TOKEN, with every role, audited as `api-token`; ' +
                'the BFF keeps only its SHA-256.',
            },
            operatorSession: {
              type: 'apiKey',
              in: 'cookie',
              name: OPERATOR_COOKIE,
              description:
                "A console session's opaque id, set by POST /api/v1/admin/session (HttpOnly, SameSite=Strict, " +
                'Path=/api/v1/admin); the session lives in Redis with idle and absolute expiry.',
            },
          },
        },
      },
      transform: jsonSchemaTransform,
      // The named zod schemas become `components.schemas` and `$ref`s; then what zod cannot say is added.
      transformObject: (documentObject) => {
        if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
        return completeDocument(jsonSchemaTransformObject(documentObject) as OpenApiDocument);
      },
    });
    await app.register(swaggerUi, {
      routePrefix: '/api/docs',
      staticCSP: true,
      // The built document is cached; each served copy gets the request examples of the day it is read.
      transformSpecification: (document) => addRequestExamples(document as OpenApiDocument, options.today()),
    });
  },
  { name: 'openapi' },
);
