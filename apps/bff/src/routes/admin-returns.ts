import * as z from 'zod';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import {
  BuyerReturnSchema,
  ReturnDecisionSchema,
  ReturnQueueQuerySchema,
  ReturnQueueSchema,
  ReturnReversalSchema,
} from '@funnel/contracts/buyer-api';
import { capTerms, returnPolicyOf, type BuyersFile } from '@funnel/contracts/buyers';
import type { Database } from '@funnel/db/database';
import { decideReturn, listReturns } from '@funnel/db/buyer-returns';
import { reverseReturn } from '@funnel/db/return-reversals';
import { operatorRoute } from '../admin/operator-route.js';
import { HttpError } from '../http-error.js';
import { readSystemOfRecord } from '../system-of-record/read-system-of-record.js';

export interface AdminReturnRoutesOptions {
  db: Kysely<Database> | undefined;
  /** The buyers document (ADR 0022): each buyer's return window and cap (defaults for a buyer it does not list). */
  buyers: () => Promise<BuyersFile | undefined>;
  /** The business time zone, for a buyers document without one: the cap's calendar periods. */
  timeZone: string;
  now: () => Date;
}

const DAY_MS = 86_400_000;

/** A decision's or a reversal's answers: the return as it now stands, or why not. */
const DECISION_RESPONSES = {
  200: BuyerReturnSchema,
  400: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
  503: ApiErrorSchema,
};
const returnParams = z.object({ returnId: z.string().max(100) });

/** Who decided, as the audit log names them: the lead's journey shows it beside the decision. */
const actorOf = (request: FastifyRequest) => request.operator?.actor ?? 'unknown';

/**
 * The operator's side of buyers' returns (ADR 0020, ADR 0021): the returns by status with each buyer's window
 * and cap, a manager's decision on a queued one, and the reversal of a decided one, each audited.
 */
const adminReturnRoutes: FastifyPluginAsyncZod<AdminReturnRoutesOptions> = async (app, options) => {
  app.get(
    '/admin/returns',
    operatorRoute(
      'manager',
      'returns.list',
      {
        summary: 'Buyers’ returns by status (pending: the queue waiting for an operator)',
        description:
          'Oldest filed first, at most 200, with the buyer, its note, the sale time, when its return window ' +
          'closes and its cap under its current terms.',
        querystring: ReturnQueueQuerySchema,
        response: { 200: ReturnQueueSchema, 400: ApiErrorSchema, 503: ApiErrorSchema },
      },
      ['status'],
    ),
    async (request) => {
      const rows = await readSystemOfRecord(options.db, 'Returns', request.log, (db) =>
        listReturns(db, request.query.status),
      );
      const buyers = await options.buyers();
      return {
        returns: rows.map((row) => {
          const policy = returnPolicyOf(buyers?.buyers.find((buyer) => buyer.id === row.buyer));
          const closes = new Date(Date.parse(row.soldAt) + policy.windowDays * DAY_MS);
          return { ...row, windowClosesAt: closes.toISOString(), cap: capTerms(policy.cap) };
        }),
      };
    },
  );

  app.post(
    '/admin/returns/:returnId',
    operatorRoute(
      'manager',
      'returns.decide',
      {
        summary: 'Approve or reject a pending return',
        description:
          'Approve: the sale’s revenue is reversed, and the affiliate’s payout when it was paid (its postback ' +
          'is told when it accepts reversals). Reject: the sale stands. The window and the cap were checked ' +
          'when the buyer filed it (a pending return counts against the cap). 409 for a return no longer pending.',
        params: returnParams,
        body: ReturnDecisionSchema,
        response: DECISION_RESPONSES,
      },
      ['returnId', 'decision'],
    ),
    async (request) => {
      const result = await readSystemOfRecord(options.db, 'Returns', request.log, (db) =>
        decideReturn(db, request.params.returnId, request.body.decision, options.now(), actorOf(request)),
      );
      if (!result) throw new HttpError(404, 'NOT_FOUND', 'No return has this id.');
      if (!result.decided) {
        throw new HttpError(
          409,
          'CONFLICT',
          `This return is no longer pending: it was ${result.value.status}.`,
          {
            decision: `This return was ${result.value.status} already; reload the list.`,
          },
        );
      }
      if (result.value.status === 'approved') await app.leadJobs.payoutReversal(result.value.leadId);
      return result.value;
    },
  );

  app.post(
    '/admin/returns/:returnId/reverse',
    operatorRoute(
      'manager',
      'returns.reverse',
      {
        summary: 'Reverse a decided return',
        description:
          'Approved → reversed: the sale stands again (its revenue counts, the return leaves the buyer’s cap ' +
          'and record) and the affiliate’s payout, when it was taken back, is restored (an affiliate told of ' +
          'the reversal by postback is told `return_reversed`). Rejected → approved: as an approval, when the ' +
          'sale’s return window is still open and the buyer’s cap allows it. Only while the window is open; ' +
          'a reversed return is final. 409 with `fields.reason` saying why a return cannot be reversed.',
        params: returnParams,
        body: ReturnReversalSchema,
        response: DECISION_RESPONSES,
      },
      ['returnId', 'reason'],
    ),
    async (request) => {
      const result = await readSystemOfRecord(options.db, 'Returns', request.log, async (db) => {
        // The buyer's terms now (the live buyers document), as when it files a return.
        const buyers = await options.buyers();
        return reverseReturn(db, {
          returnId: request.params.returnId,
          reason: request.body.reason,
          policyOf: (buyer) => returnPolicyOf(buyers?.buyers.find((b) => b.id === buyer)),
          timeZone: buyers?.timeZone ?? options.timeZone,
          now: options.now(),
          operator: actorOf(request),
        });
      });
      if (!result) throw new HttpError(404, 'NOT_FOUND', 'No return has this id.');
      if (!result.reversed) {
        throw new HttpError(409, 'CONFLICT', result.message, { reason: result.message });
      }
      const { leadId } = result.value;
      if (result.from === 'approved') await app.leadJobs.payoutRestore(leadId);
      else await app.leadJobs.payoutReversal(leadId);
      return result.value;
    },
  );
};

export default adminReturnRoutes;
