import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateLeadRequestSchema,
  DeepLinkLeadRequestSchema,
  LeadSummarySchema,
  StepSavedSchema,
} from '@funnel/contracts/api';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { StepNameSchema } from '@funnel/contracts/steps';

const errors = { 400: ApiErrorSchema, 404: ApiErrorSchema, 429: ApiErrorSchema };

/** The visitor's own lead: create it, read it back, save one step at a time. */
const leadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/lead',
    {
      config: { rateLimit: {} },
      schema: {
        summary: 'Create a lead from the landing form (or pre-fill one from a deep link)',
        description:
          'Looks up the ZIP code, creates the lead and binds it to the visitor with a signed HttpOnly cookie. ' +
          'A deep-link body `{ email, loanReason }` only pre-fills a new lead. Attribution is captured here: ' +
          '`landingParams` (the landing URL parameters, by their URL names), the click-id, visitor-id, `_fbp` ' +
          'and `_gcl_aw` cookies, and the Referer as the page URL (without its query string).',
        tags: ['lead'],
        body: z.union([CreateLeadRequestSchema, DeepLinkLeadRequestSchema]),
        response: { 201: LeadSummarySchema, ...errors },
      },
    },
    async (request, reply) => {
      const context = {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        cookies: request.cookies,
        referer: request.headers.referer,
      };
      const body = request.body;
      const { id, summary } =
        'zipCode' in body
          ? await app.leads.createFromLanding(body, context)
          : await app.leads.createFromDeepLink(body, context);
      reply.bindLead(id);
      return reply.code(201).send(summary);
    },
  );

  app.get(
    '/lead',
    {
      schema: {
        summary: "The visitor's lead: answers (sensitive ones masked), next step and progress",
        tags: ['lead'],
        response: { 200: LeadSummarySchema, 404: ApiErrorSchema },
      },
    },
    async (request) => app.leads.summary(request.sessionLeadId()),
  );

  app.put(
    '/lead/steps/:step',
    {
      schema: {
        summary: "Save one step's answer",
        description:
          "The body holds the step's fields (client names), validated by the step's schema from the contracts " +
          'package. Answers `{ nextStep, progress }`; the next step is computed from the stored lead.',
        tags: ['lead'],
        params: z.object({ step: StepNameSchema }),
        body: z.record(z.string(), z.unknown()),
        response: { 200: StepSavedSchema, ...errors },
      },
    },
    async (request) => app.leads.saveStep(request.sessionLeadId(), request.params.step, request.body),
  );
};

export default leadRoutes;
