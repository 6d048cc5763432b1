import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import {
  LEAD_SEARCH_LIMIT,
  LeadJourneySchema,
  LeadSearchQuerySchema,
  LeadSearchResultSchema,
} from '@funnel/contracts/lead-journey';
import {
  LeadRevealRequestSchema,
  LeadRevealSchema,
  REVEAL_REASON_MIN,
  isLastFourOnly,
} from '@funnel/contracts/lead-reveal';
import { CLIENT_TO_SERVER } from '@funnel/contracts/fields';
import { leadJourney, searchLeads } from '@funnel/db/lead-journey';
import { searchAuditDetails } from '../admin/search-audit-details.js';
import { operatorRoute } from '../admin/operator-route.js';
import { HttpError } from '../http-error.js';
import { maskSensitive } from '../lead/mask.js';
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
          'reading answers; they travel in this body so that they never reach a URL or a log. The audit entry ' +
          'names the filters given, and the email and phone only by those keyed hashes (`emailHash`, ' +
          '`phoneHash`), which `POST /admin/audit/search` finds again.',
        body: LeadSearchQuerySchema,
        response: { 200: LeadSearchResultSchema, ...errors },
      },
      // Which filters were given; the email or phone searched for only as its keyed hash.
      searchAuditDetails((contact) => app.contactIndex.hashes(contact)),
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
        "to (a duplicate borrower's outcome names the lead they applied with first, `duplicateOf`), a " +
        'return with the operator who decided it, and any privacy request that named it. `sale` says who ' +
        'bought the lead and for how much. A lead erased on a deletion request says so (`erased`).',
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

  app.post(
    '/admin/leads/:leadId/reveal',
    operatorRoute(
      'admin',
      'leads.reveal',
      {
        summary: "Reveal one of a lead's masked answers",
        description:
          `One answer in clear, for a reason of at least ${REVEAL_REASON_MIN} characters; the audit entry keeps ` +
          'the field and the reason, never the value. The SSN, bank account, routing and licence numbers show ' +
          'their last four only (ADR 0002), and the birth date is never revealed. 404 once the lead is gone ' +
          '(expired, purged after its outcome, or erased on a deletion request): the system of record never ' +
          'held its answers.',
        params: z.object({ leadId: z.string().min(16).max(64) }),
        body: LeadRevealRequestSchema,
        response: { 200: LeadRevealSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
      ['field', 'reason'],
    ),
    async (request) => {
      const { leadId } = request.params;
      const { field } = request.body;
      const serverField = CLIENT_TO_SERVER[field];
      const lead = await app.leadStore.get(leadId, { open: (name) => name === serverField });
      if (!lead) {
        throw new HttpError(
          404,
          'NOT_FOUND',
          "This lead's answers are no longer kept: it expired or was erased. Its journey keeps ids, times " +
            'and outcomes only.',
        );
      }
      const value = (lead.fields as Record<string, unknown>)[serverField];
      if (value === undefined || value === null || value === '') {
        throw new HttpError(
          404,
          'NOT_FOUND',
          `This lead holds no ${field}: it was never given, or it was purged after the outcome.`,
        );
      }
      return isLastFourOnly(field)
        ? { leadId, field, value: maskSensitive(field, String(value)), lastFourOnly: true }
        : { leadId, field, value: String(value), lastFourOnly: false };
    },
  );
};

export default leadJourneyRoutes;
