import fp from 'fastify-plugin';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { FIELD_DESCRIPTIONS } from '@funnel/contracts/field-docs';
import { SESSION_COOKIE } from './lead-session.js';
import { OPERATOR_COOKIE } from '../admin/operator-cookie.js';

/**
 * Gives every schema property named after a lead field the field's description (`field-docs.ts`), wherever it
 * appears: the step operations, the partner API, the lead summary. A description the schema has wins.
 */
function describeLeadFields(node: unknown): void {
  if (Array.isArray(node)) {
    for (const item of node) describeLeadFields(item);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const properties = (node as { properties?: unknown }).properties;
  if (properties && typeof properties === 'object') {
    for (const [name, schema] of Object.entries(properties as Record<string, Record<string, unknown>>)) {
      const description = FIELD_DESCRIPTIONS[name as keyof typeof FIELD_DESCRIPTIONS];
      if (description && schema && typeof schema === 'object' && schema.description === undefined) {
        schema.description = description;
      }
    }
  }
  for (const value of Object.values(node)) describeLeadFields(value);
}

/**
 * Says of every operation who may call it (the lead's session cookie, a bearer key, or anyone) and gives it an
 * operation id (`getLookupZipByZip`) unless its route names one.
 */
function completeOperations(paths: Record<string, Record<string, Record<string, unknown>>>): void {
  for (const [path, methods] of Object.entries(paths)) {
    for (const [method, operation] of Object.entries(methods)) {
      if (operation.security === undefined) {
        const needsSession =
          path.startsWith('/api/v1/lead/') || (path === '/api/v1/lead' && method === 'get');
        operation.security = needsSession ? [{ leadSession: [] }] : [];
      }
      operation.operationId ??= operationIdOf(method, path);
    }
  }
}

function operationIdOf(method: string, path: string): string {
  const words = path
    .replace(/^\/api\/v1\//, '')
    .split('/')
    .filter(Boolean)
    .map((segment) => (segment.startsWith('{') ? `by-${segment.slice(1, -1)}` : segment))
    .flatMap((segment) => segment.split(/[-_.]/))
    .filter(Boolean);
  return method + words.map((word) => word[0]!.toUpperCase() + word.slice(1)).join('');
}

/** OpenAPI 3.1 generated from the zod contracts, served at /api/docs (UI) and /api/docs/json. */
export default fp(
  async (app) => {
    await app.register(swagger, {
      openapi: {
        openapi: '3.1.0',
        info: {
          title: 'Loan funnel BFF API',
          version: '1.0.0',
          description:
            'The REST API behind the borrower funnel. The visitor is identified by a signed HttpOnly cookie set ' +
            'by POST /api/v1/lead; every other lead call acts on that lead only. Errors share one shape: ' +
            '`{ error: { code, message, fields? } }` where `fields` maps a field name to the message a person reads.',
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
          { name: 'admin', description: 'Operator endpoints (Authorization: Bearer <ADMIN_API_TOKEN>)' },
          {
            name: 'partner-api',
            description:
              'Server-to-server lead posting for integrators, authenticated by API key (Authorization: Bearer). ' +
              'Outcome webhooks are signed: X-Funnel-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "t.body">.',
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
            adminToken: {
              type: 'http',
              scheme: 'bearer',
              description: 'The operator token ADMIN_API_TOKEN; the BFF keeps only its SHA-256.',
            },
            operatorSession: {
              type: 'apiKey',
              in: 'cookie',
              name: OPERATOR_COOKIE,
              description:
                "The operator page's signed cookie, set by POST /api/v1/admin/session (HttpOnly, SameSite=Strict, " +
                '8 hours); the reports accept it instead of the operator token.',
            },
          },
        },
      },
      transform: jsonSchemaTransform,
      transformObject: (documentObject) => {
        if (!('openapiObject' in documentObject)) return documentObject.swaggerObject;
        const paths = documentObject.openapiObject.paths ?? {};
        describeLeadFields(paths);
        completeOperations(paths as Record<string, Record<string, Record<string, unknown>>>);
        return documentObject.openapiObject;
      },
    });
    await app.register(swaggerUi, { routePrefix: '/api/docs', staticCSP: true });
  },
  { name: 'openapi' },
);
