import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { CONTROL_CHARACTER, CONTROL_CHARACTER_IN_TEXT } from '../admin/control-characters.js';
import { HttpError } from '../http-error.js';

const ADMIN_PREFIX = '/api/v1/admin/';

/** The names of the fields in `source` (nested ones as `a.b`) whose string value `pattern` matches. */
function fieldsWith(source: unknown, pattern: RegExp, path = ''): string[] {
  if (typeof source === 'string') return pattern.test(source) ? [path || '_'] : [];
  if (!source || typeof source !== 'object') return [];
  return Object.entries(source).flatMap(([key, value]) =>
    fieldsWith(value, pattern, path ? `${path}.${key}` : key),
  );
}

function offendingFields(request: FastifyRequest): string[] {
  return [
    ...fieldsWith(request.params, CONTROL_CHARACTER),
    ...fieldsWith(request.query, CONTROL_CHARACTER),
    ...(request.url.startsWith(ADMIN_PREFIX) ? fieldsWith(request.body, CONTROL_CHARACTER_IN_TEXT) : []),
  ];
}

/**
 * Control characters in a parameter (docs/adr/0025): a NUL byte or any other control character in a path or
 * query parameter of the API, or in a string field of an operator route's body, answers 400 before the route's
 * schema or handler sees it. PostgreSQL refuses NUL in text, so such a value used to reach the audit log's
 * insert and answer 503 with nothing recorded; an operator route now audits the refusal itself, as denied,
 * naming the fields (never their values).
 */
export default fp(
  async (app) => {
    app.addHook('preValidation', async (request) => {
      if (!request.url.startsWith('/api/')) return;
      const fields = offendingFields(request);
      if (fields.length === 0) return;
      const access = request.operatorAccess;
      if (access && request.operator) {
        // Refused either way: an audit log that cannot take the entry does not turn the 400 into a 503.
        await app
          .audit(request, {
            action: access.action,
            outcome: 'denied',
            details: { refused: 'control-character', fields },
          })
          .catch((error: Error) =>
            request.log.warn({ err: error.message }, 'operator audit entry of a refused request not written'),
          );
      }
      throw new HttpError(
        400,
        'BAD_REQUEST',
        'The request holds a control character (such as a NUL byte); remove it and try again.',
        Object.fromEntries(fields.map((field) => [field, 'Remove the control character.'])),
      );
    });
  },
  { name: 'control-character-guard', dependencies: ['admin-auth'] },
);
