import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import {
  BuyerReturnSchema,
  ReturnDecisionSchema,
  ReturnQueueQuerySchema,
  ReturnQueueSchema,
} from '@funnel/contracts/buyer-api';
import type { Database } from '@funnel/db/database';
import { decideReturn, listReturns } from '@funnel/db/buyer-returns';
import { HttpError } from '../http-error.js';
import { readSystemOfRecord } from '../system-of-record/read-system-of-record.js';

// The bearer token only, like every admin route but the reports: a decision moves money (ADR 0010's cookie reads).
const security: Array<Record<string, string[]>> = [{ adminToken: [] }];

export interface AdminReturnRoutesOptions {
  db: Kysely<Database> | undefined;
  now: () => Date;
}

/** The operator's side of buyers' returns (ADR 0020): the queue of returns a rule did not approve, and decisions. */
const adminReturnRoutes: FastifyPluginAsyncZod<AdminReturnRoutesOptions> = async (app, options) => {
  app.addHook('onRequest', app.requireAdmin);

  app.get(
    '/admin/returns',
    {
      schema: {
        summary: 'Buyers’ returns by status (pending: the queue waiting for an operator)',
        description: 'Oldest filed first, at most 200, with the buyer and its note.',
        tags: ['admin'],
        security,
        querystring: ReturnQueueQuerySchema,
        response: { 200: ReturnQueueSchema, 400: ApiErrorSchema, 401: ApiErrorSchema, 503: ApiErrorSchema },
      },
    },
    async (request) => ({
      returns: await readSystemOfRecord(options.db, 'Returns', request.log, (db) =>
        listReturns(db, request.query.status),
      ),
    }),
  );

  app.post(
    '/admin/returns/:returnId',
    {
      schema: {
        summary: 'Approve or reject a pending return',
        description:
          'Approve: the sale’s revenue is reversed, and the affiliate’s payout when it was paid (its postback ' +
          'is told when it accepts reversals). Reject: the sale stands. 409 for a return no longer pending.',
        tags: ['admin'],
        security,
        params: z.object({ returnId: z.string().max(100) }),
        body: ReturnDecisionSchema,
        response: {
          200: BuyerReturnSchema,
          400: ApiErrorSchema,
          401: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
          503: ApiErrorSchema,
        },
      },
    },
    async (request) => {
      const result = await readSystemOfRecord(options.db, 'Returns', request.log, (db) =>
        decideReturn(db, request.params.returnId, request.body.decision, options.now()),
      );
      if (!result) throw new HttpError(404, 'NOT_FOUND', 'No return has this id.');
      if (!result.decided) {
        throw new HttpError(
          409,
          'CONFLICT',
          `This return is no longer pending: it was ${result.value.status}.`,
        );
      }
      if (result.value.status === 'approved') await app.leadJobs.payoutReversal(result.value.leadId);
      return result.value;
    },
  );
};

export default adminReturnRoutes;
