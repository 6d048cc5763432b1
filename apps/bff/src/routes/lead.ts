import { SESSION_COOKIE } from '../plugins/lead-session.js';
import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import {
  CreateLeadRequestSchema,
  DeepLinkLeadRequestSchema,
  createLeadBodySchema,
  LeadSummarySchema,
  StepSavedSchema,
} from '@funnel/contracts/api';
import { ApiErrorSchema, fieldErrors } from '@funnel/contracts/errors';
import { HttpError } from '../http-error.js';
import { STEPS, type StepName } from '@funnel/contracts/steps';

const errors = { 400: ApiErrorSchema, 404: ApiErrorSchema, 429: ApiErrorSchema };

declare module 'fastify' {
  interface FastifyContextConfig {
    /** The step a step-save route saves (for its metrics). */
    step?: StepName;
  }
}

/** The visitor's own lead: create it, read it back, save one step at a time. */
const leadRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/lead',
    {
      config: { rateLimit: {} },
      // The union below documents both bodies; validating against the one the body means first answers a
      // mistake with that form's per-field messages instead of the union's 'Invalid input'.
      preValidation: async (request) => {
        const parsed = createLeadBodySchema(request.body).safeParse(request.body);
        if (!parsed.success) throw HttpError.validation(fieldErrors(parsed.error));
      },
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

  app.delete(
    '/lead',
    {
      schema: {
        summary: "Start over: abandon the visitor's unfinished application",
        description:
          'Erases the draft bound to the session cookie (a submitted lead is kept) and clears the cookie, so ' +
          'the next landing form starts a new lead. Answers 204 with or without a session.',
        tags: ['lead'],
        response: { 204: z.null().describe('Abandoned') },
      },
    },
    async (request, reply) => {
      await app.leads.abandon(request.sessionLeadId());
      reply.unbindLead();
      return reply.code(204).send(null);
    },
  );

  app.get(
    '/lead',
    {
      schema: {
        summary: "The visitor's lead: answers (sensitive ones masked), next step and progress",
        description:
          'A visitor without a session cookie (a new visitor) gets 204 and no body: nothing is wrong. A cookie ' +
          'whose lead is gone, expired or tampered with gets 404 `SESSION_EXPIRED`.',
        tags: ['lead'],
        response: { 200: LeadSummarySchema, 204: z.null().describe('No session yet'), 404: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      if (!request.cookies[SESSION_COOKIE]) return reply.code(204).send(null);
      return app.leads.summary(request.sessionLeadId());
    },
  );

  // One operation per step, each documented with its own body schema and example. The step's rules need today's
  // date and the stored lead, so `saveStep` validates the body (once); the route's schema only documents it.
  for (const step of STEPS) {
    app.put(
      `/lead/steps/${step.name}`,
      {
        config: { step: step.name },
        schema: {
          operationId: `saveStep_${step.name}`,
          summary: `Save the ${step.name} step (${step.title})`,
          description:
            `Saves the answer of the \`/${step.name}\` screen to the visitor's lead. Unknown keys are ignored. ` +
            'Answers `{ nextStep, progress }`, the next step computed from the stored lead; a 400 names each ' +
            'field with the message a person reads. Steps are answered in wizard order: saving a step again ' +
            '(after going Back) is fine, but a step ahead of the first unanswered one answers ' +
            '409 `STEP_OUT_OF_ORDER` with that step as `nextStep`; a submitted lead answers 409 `CONFLICT`.',
          tags: ['lead'],
          // Named in the document (`LgnameStep`, …); its example is added as the document is served
          // (plugins/openapi-document.ts).
          body: step.schema,
          response: { 200: StepSavedSchema, ...errors, 409: ApiErrorSchema },
        },
        validatorCompiler: () => (data) => ({ value: data }),
      },
      async (request) => app.leads.saveStep(request.sessionLeadId(), step.name, request.body),
    );
  }
};

export default leadRoutes;
