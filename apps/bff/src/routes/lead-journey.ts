import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import {
  LEAD_SEARCH_LIMIT,
  LeadJourneySchema,
  LeadSearchQuerySchema,
  LeadSearchResultSchema,
} from '@funnel/contracts/lead-journey';
import { leadJourney, searchLeads } from '@funnel/db/lead-journey';
import { operatorRoute } from '../admin/operator-route.js';
import { HttpError } from '../http-error.js';
import { readSystemOfRecord } from '../system-of-record/read-system-of-record.js';
import type { ReportRoutesOptions } from './reports.js';

const errors = { 400: ApiErrorSchema, 503: ApiErrorSchema };

/** The operator's lead search and one lead's journey, read from the system of record (issue 33). */
const leadJourneyRoutes: FastifyPluginAsyncZod<ReportRoutesOptions> = async (app, options) => {
  app.post(
    '/admin/leads/search',
    operatorRoute(
      'viewer',
      'leads.search',
      {
        summary: 'Search leads',
        description:
          `The leads matching every given filter, newest first, at most ${LEAD_SEARCH_LIMIT}; \`more\` says ` +
          'that more matched. `from` and `to` are calendar days in the business time zone (`to` included); ' +
          '`partner` with `idempotencyKey` finds a partner lead by the key it was posted with; `buyer` the ' +
          'leads offered to that buyer; `outcome: pending` the leads without a final outcome. `email` and ' +
          '`phone` are matched through their keyed hashes (the index a deletion request uses), never by ' +
          'reading answers; they travel in this body so that they never reach a URL or a log.',
        body: LeadSearchQuerySchema,
        response: { 200: LeadSearchResultSchema, ...errors },
      },
      // What was searched by, never the email or phone searched for.
      [
        'leadId',
        'partner',
        'idempotencyKey',
        'clickId',
        'affiliate',
        'source',
        'from',
        'to',
        'outcome',
        'buyer',
      ],
    ),
    async (request) => {
      const { email, phone, ...filters } = request.body;
      const amongLeads = email || phone ? await app.contactIndex.leadsOf({ email, phone }) : undefined;
      return readSystemOfRecord(options.db, 'The leads', request.log, (db) =>
        searchLeads(db, { ...filters, ...(amongLeads ? { amongLeads } : {}) }, options.timeZone),
      );
    },
  );

  app.get(
    '/admin/leads/:leadId',
    operatorRoute('viewer', 'leads.journey', {
      summary: "A lead's journey",
      description:
        'Every event the system of record holds for the lead, oldest first: its creation and attribution, ' +
        'each step saved (the step and time; never the answer), the consent evidence (the text version and ' +
        'hash, the button, the page; who consented stays sealed), the submission, each buyer attempt with ' +
        'its price, latency, answer and mapped field errors, the outcome and the host the borrower was sent ' +
        'to, and any privacy request that named it. A lead erased on a deletion request says so (`erased`).',
      params: z.object({ leadId: z.string().min(16).max(64) }),
      response: { 200: LeadJourneySchema, 404: ApiErrorSchema, ...errors },
    }),
    async (request) => {
      const journey = await readSystemOfRecord(options.db, 'The lead', request.log, (db) =>
        leadJourney(db, request.params.leadId),
      );
      if (!journey) throw new HttpError(404, 'NOT_FOUND', 'No lead with this id is in the system of record.');
      return journey;
    },
  );
};

export default leadJourneyRoutes;
