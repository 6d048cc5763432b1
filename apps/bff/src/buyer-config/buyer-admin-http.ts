import type { FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import { buyerViews, type BuyersConfigView } from '@funnel/contracts/buyer-admin';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import type { OperatorRole } from '@funnel/contracts/operators';
import type { BuyerConfig } from '@funnel/db/buyer-config';
import type { Database } from '@funnel/db/database';
import { HttpError } from '../http-error.js';

/** The error answers every buyers route may give (besides the 401 and 403 of any operator route). */
export const BUYER_ERRORS = {
  400: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
  503: ApiErrorSchema,
};

/** The system of record the buyers live in; 503 without one. */
export function buyersDatabase(db: Kysely<Database> | undefined): Kysely<Database> {
  if (!db) {
    throw new HttpError(503, 'UNAVAILABLE', 'Buyers are managed in the system of record: set DATABASE_URL.');
  }
  return db;
}

/** The console's view of a version: the document without credentials, each buyer's pause. */
export function configView(config: BuyerConfig): BuyersConfigView {
  const { timeZone, mode, auction } = config.file;
  return {
    version: config.version,
    at: config.at.toISOString(),
    actor: config.actor,
    timeZone,
    mode,
    auction,
    buyers: buyerViews(config.file, config.paused, config.keysNeeded),
  };
}

/** Who makes a change: the operator's account and name as the audit log has them, and the role it acts in. */
export interface Changer {
  accountId: string | null;
  actor: string;
  role: OperatorRole;
}

/** Who makes a change, for its version and for what the role may change. */
export function changerOf(request: FastifyRequest): Changer {
  return {
    accountId: request.operator?.accountId ?? null,
    actor: request.operator?.actor ?? 'anonymous',
    role: request.operator?.role ?? 'viewer',
  };
}
