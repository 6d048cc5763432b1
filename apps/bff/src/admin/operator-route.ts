import type { FastifyRequest, FastifySchema } from 'fastify';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import type { AuditAction, OperatorRole } from '@funnel/contracts/operators';
import type { OperatorAccess } from '../plugins/admin-auth.js';

/** A console session, or a machine client's ADMIN_API_TOKEN. */
export const OPERATOR_SECURITY: Array<Record<string, string[]>> = [
  { operatorSession: [] },
  { adminToken: [] },
];

const ROLE_NOTE: Record<OperatorRole, string> = {
  viewer: 'Role: **viewer** or above.',
  manager: 'Role: **manager** or **admin**.',
  admin: 'Role: **admin**.',
};

/** The fields among `keys` the request gives, in its path, query or body: what an audit entry keeps of them. */
export function auditedFields(request: FastifyRequest, keys: readonly string[]): Record<string, unknown> {
  const { params, query, body } = request;
  const source = { ...(body ?? {}), ...(query ?? {}), ...(params ?? {}) } as Record<string, unknown>;
  return Object.fromEntries(keys.filter((key) => source[key] !== undefined).map((key) => [key, source[key]]));
}

/**
 * An operator route's options (ADR 0021): its role and audit action in `config.operator`, and in the OpenAPI
 * document its security, its role, and the 401 and 403 answers every such route can give.
 */
export function operatorRoute<S extends FastifySchema>(
  role: OperatorRole,
  action: AuditAction,
  schema: S & { description?: string; response?: Record<number, unknown> },
  /**
   * The path, query or body fields the audit entry keeps (filters, a role, a reason: never personal data), or
   * the function that builds its details when a field must be masked first.
   */
  details?: readonly string[] | OperatorAccess['details'],
) {
  const access: OperatorAccess = {
    role,
    action,
    ...(typeof details === 'function'
      ? { details }
      : details
        ? { details: (request) => auditedFields(request, details) }
        : {}),
  };
  return {
    config: { operator: access },
    schema: {
      ...schema,
      tags: ['admin'],
      security: OPERATOR_SECURITY,
      description: [ROLE_NOTE[role], `Audited as \`${action}\`.`, schema.description]
        .filter(Boolean)
        .join(' '),
      response: { ...schema.response, 401: ApiErrorSchema, 403: ApiErrorSchema },
    },
  };
}
