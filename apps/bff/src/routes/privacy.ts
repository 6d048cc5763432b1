import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import {
  DoNotSellRequestSchema,
  PrivacyRequestResultSchema,
  UnsubscribeRequestSchema,
} from '@funnel/contracts/privacy';

const answers = { 200: PrivacyRequestResultSchema, 400: ApiErrorSchema, 429: ApiErrorSchema };

/** The two privacy request forms: unsubscribe and do-not-sell-my-information. */
const privacyRoutes: FastifyPluginAsyncZod = async (app) => {
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
};

export default privacyRoutes;
