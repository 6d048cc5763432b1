import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { CrossSellRecordSchema, CrossSellRequestSchema } from '@funnel/contracts/cross-sell';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { CrossSellAnswers } from '../lead/cross-sell-answers.js';

/** The cross-sell questions of the matching screen, answered for the visitor's own lead. */
const crossSellRoutes: FastifyPluginAsyncZod<{ now: () => Date }> = async (app, { now }) => {
  const crossSell = new CrossSellAnswers({ store: app.leadStore, jobs: app.leadJobs, now });

  app.post(
    '/lead/cross-sell',
    {
      schema: {
        summary: "Record cross-sell answers for the visitor's submitted lead",
        description:
          'Answers by question id (`card-offers`, `credit-card-debt`, `auto-insurance`, `credit-score`), yes or ' +
          'no; a later answer replaces an earlier one. Answers the stored record with its markers (14 for a yes ' +
          'to credit-card-debt, 13 auto-insurance, 12 credit-score). A yes to any question but credit-card-debt ' +
          'forwards the record to the cross-sell partner, unless the contact opted out or asked not to be sold. ' +
          '409 before the lead is submitted.',
        tags: ['lead'],
        body: CrossSellRequestSchema,
        response: {
          200: CrossSellRecordSchema,
          400: ApiErrorSchema,
          404: ApiErrorSchema,
          409: ApiErrorSchema,
        },
      },
    },
    async (request) => crossSell.record(request.sessionLeadId(), request.body),
  );
};

export default crossSellRoutes;
