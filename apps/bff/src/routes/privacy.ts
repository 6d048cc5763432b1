import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import {
  DoNotSellRequestSchema,
  PrivacyRequestLogQuerySchema,
  PrivacyRequestLogSchema,
  PrivacyRequestResultSchema,
  UnsubscribeRequestSchema,
  type PrivacyRequestLog,
} from '@funnel/contracts/privacy';
import type { ContactSealer } from '@funnel/db/consent-archive';
import type { Database } from '@funnel/db/database';
import { listPrivacyRequests } from '@funnel/db/privacy-request-log';
import { operatorRoute } from '../admin/operator-route.js';
import { readSystemOfRecord } from '../system-of-record/read-system-of-record.js';

export interface PrivacyRoutesOptions {
  /** The system of record, holding the privacy-request log; undefined when DATABASE_URL is not set. */
  db?: Kysely<Database> | undefined;
  /** Opens the logged requests (the field-encryption key ring). */
  sealer: ContactSealer;
}

const DAY_MS = 86_400_000;

const answers = { 200: PrivacyRequestResultSchema, 400: ApiErrorSchema, 429: ApiErrorSchema };

/** The two privacy request forms (unsubscribe, do-not-sell-my-information), and the operator's log of requests. */
const privacyRoutes: FastifyPluginAsyncZod<PrivacyRoutesOptions> = async (app, options) => {
  app.post(
    '/privacy/unsubscribe',
    {
      config: { rateLimit: {} },
      schema: {
        summary: 'Stop marketing email, texts and calls to an email address and phone number',
        description:
          'Recorded durably and honoured within 48 hours. A repeat of the same request within 24 hours gets the ' +
          'same answer and stores nothing new. Bad input: 400 with a message per field; nothing is stored.',
        tags: ['privacy'],
        body: UnsubscribeRequestSchema,
        response: answers,
      },
    },
    async (request) => app.privacyRequests.unsubscribe(request.body),
  );

  app.post(
    '/privacy/do-not-sell',
    {
      config: { rateLimit: {} },
      schema: {
        summary: "Do not sell or share a person's information with marketing partners",
        description:
          "Recorded durably; the contact's email and phone are suppressed, and the visitor's own lead (from the " +
          'session cookie, when present) is flagged so it is never shared. A repeat within 24 hours stores ' +
          'nothing new. A `Sec-GPC: 1` header on any request flags the lead the same way.',
        tags: ['privacy'],
        body: DoNotSellRequestSchema,
        response: answers,
      },
    },
    async (request) => app.privacyRequests.doNotSell(request.body, request.sessionLeadId()),
  );

  app.get(
    '/admin/privacy-requests',
    operatorRoute(
      'admin',
      'privacy-requests.read',
      {
        summary: 'The privacy-request log: unsubscribe, do-not-sell and deletion requests, oldest first',
        description:
          'From the system of record, between two UTC days (`to` included), at most `limit` (default 500). Each ' +
          'request as sent, opened, to honour it and show an auditor; after a deletion request for the ' +
          'contact, only the fact of it (type, time, reason or state, `erasedAt`). A request shows here once ' +
          'the worker has drained it from Redis, normally within a second. 503 without DATABASE_URL.',
        querystring: PrivacyRequestLogQuerySchema,
        response: { 200: PrivacyRequestLogSchema, 400: ApiErrorSchema, 503: ApiErrorSchema },
      },
      ['from', 'to', 'limit'],
    ),
    async (request): Promise<PrivacyRequestLog> => {
      const from = new Date(`${request.query.from}T00:00:00Z`);
      const to = new Date(Date.parse(`${request.query.to}T00:00:00Z`) + DAY_MS);
      const requests = await readSystemOfRecord(options.db, 'The privacy-request log', request.log, (db) =>
        listPrivacyRequests(db, { from, to, limit: request.query.limit }, options.sealer),
      );
      return { requests: requests as PrivacyRequestLog['requests'] };
    },
  );
};

export default privacyRoutes;
