import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import {
  IDEMPOTENCY_KEY_HEADER,
  IdempotencyKeySchema,
  LocalPartnerLeadRequestSchema,
  PartnerLeadAcceptedSchema,
  PartnerLeadRequestSchema,
  PartnerLeadStatusSchema,
} from '@funnel/contracts/partner-api';
import { PartnerIdempotency } from '../partner-api/partner-idempotency.js';
import { PartnerLeads } from '../partner-api/partner-leads.js';
import type { PartnerIdentity } from '../partner-api/partner-keyring.js';
import { HttpError } from '../http-error.js';
import { inSubmissionSpan } from '../lead/submission-span.js';

export interface PartnerLeadRouteOptions {
  keyPrefix: string;
  /** Accept http:// webhook addresses (local runs and tests). */
  allowHttpWebhook: boolean;
  /** Partners with a webhook secret configured. */
  webhookPartners: ReadonlySet<string>;
}

const RATE_WINDOW_MS = 60_000;
const EXAMPLE_LEAD_ID = 'k3J9xQ2mVb7TzR1pL8wN4A';

const security = [{ partnerApiKey: [] }];
const errors = { 401: ApiErrorSchema, 404: ApiErrorSchema, 429: ApiErrorSchema };

/** Set by `authenticatePartner`, which every route here runs first. */
function partnerOf(request: { partner: PartnerIdentity | null }): PartnerIdentity {
  if (!request.partner) throw new HttpError(401, 'UNAUTHORIZED', 'A valid API key is required.');
  return request.partner;
}

/**
 * The partner (integrator) API: post a complete lead server to server, read its outcome. Authenticated by API key
 * and rate-limited per partner across both routes (one counter per partner, the key's requests per minute).
 */
const partnerLeadRoutes: FastifyPluginAsyncZod<PartnerLeadRouteOptions> = async (app, options) => {
  const partnerLeads = new PartnerLeads({
    leads: app.leads,
    store: app.leadStore,
    idempotency: new PartnerIdempotency(app.redis, options.keyPrefix),
    webhookPartners: options.webhookPartners,
    reportFailure: app.reportFailure,
  });
  const perPartnerLimit = app.rateLimit({
    keyGenerator: (request) => `partner-api:${partnerOf(request).partnerId}`,
    max: (request) => partnerOf(request).ratePerMinute,
    timeWindow: RATE_WINDOW_MS,
  });
  const onRequest = [app.authenticatePartner, perPartnerLimit];

  app.post(
    '/partner/leads',
    {
      onRequest,
      schema: {
        summary: 'Post a complete lead',
        description:
          'A complete lead in the funnel’s client field names, validated by the same rules and messages as the ' +
          'funnel’s steps, plus the consent evidence your page captured. The lead is submitted to the lender ' +
          'network at once; the answer carries our lead id. With an `Idempotency-Key` header, a repeat within ' +
          '24 hours answers the first lead (header `Idempotent-Replayed: true`) and creates nothing; the same ' +
          'key with a different body (compared as canonical JSON, keys sorted) answers 422 ' +
          '`IDEMPOTENCY_KEY_REUSED`; a repeat while the first is still running answers 409. With a ' +
          '`webhookUrl`, the final outcome is POSTed there, signed: see docs/api.md, "Partner API".',
        tags: ['partner-api'],
        security,
        headers: z.looseObject({ [IDEMPOTENCY_KEY_HEADER]: IdempotencyKeySchema.optional() }),
        // Its example is the media type's, built for the day it is served (plugins/openapi-document.ts): zod leaves
        // `examples` out of an input schema.
        body: options.allowHttpWebhook ? LocalPartnerLeadRequestSchema : PartnerLeadRequestSchema,
        response: {
          202: PartnerLeadAcceptedSchema.meta({
            examples: [{ leadId: EXAMPLE_LEAD_ID, outcome: 'pending' }],
          }),
          400: ApiErrorSchema,
          409: ApiErrorSchema,
          422: ApiErrorSchema,
          ...errors,
        },
      },
    },
    async (request, reply) =>
      inSubmissionSpan(request, reply, async (span) => {
        const receipt = await partnerLeads.submit(
          partnerOf(request),
          request.body,
          request.headers[IDEMPOTENCY_KEY_HEADER],
        );
        span.setAttribute('funnel.lead.id', receipt.leadId);
        if (receipt.replayed) reply.header('idempotent-replayed', 'true');
        return reply.code(202).send({ leadId: receipt.leadId, outcome: receipt.outcome });
      }),
  );

  app.get(
    '/partner/leads/:id',
    {
      onRequest,
      schema: {
        summary: 'Where a lead you posted stands',
        description:
          '`pending` until a lender decides, then `sold` (send the borrower to `redirectUrl`), `rejected` ' +
          '(`redirectUrl` when the lender gave a reject page) or `no_lender`. `decidedAt` is set once final. ' +
          'A lead posted with another API key answers 404.',
        tags: ['partner-api'],
        security,
        params: z.object({ id: z.string().max(128) }),
        response: {
          200: PartnerLeadStatusSchema.meta({
            examples: [
              {
                leadId: EXAMPLE_LEAD_ID,
                outcome: 'sold',
                redirectUrl: 'https://lender.example/offer/5f2c',
                decidedAt: '2025-06-20T14:03:19.412Z',
              },
            ],
          }),
          ...errors,
        },
      },
    },
    async (request) => partnerLeads.status(partnerOf(request), request.params.id),
  );
};

export default partnerLeadRoutes;
