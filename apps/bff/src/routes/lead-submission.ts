import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { SubmitLeadRequestSchema } from '@funnel/contracts/consent';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { OUTCOME_EVENT, SubmitAcceptedSchema, type LeadOutcome } from '@funnel/contracts/lead-outcome';
import { inSubmissionSpan } from '../lead/submission-span.js';
import { EventStreams } from '../server-sent-events.js';

export interface SubmissionRouteOptions {
  heartbeatMs: number;
}

/** Submitting the visitor's lead and streaming its outcome back (server-sent events). */
const leadSubmissionRoutes: FastifyPluginAsyncZod<SubmissionRouteOptions> = async (app, { heartbeatMs }) => {
  const streams = new EventStreams(heartbeatMs);
  app.addHook('preClose', async () => streams.closeAll());

  app.post(
    '/lead/submit',
    {
      schema: {
        summary: 'Submit the complete lead to the lender network',
        description:
          'Requires every step answered and the consent given by pressing Request Funds / Request Cash. Stores ' +
          'the consent evidence and enqueues the lead once: repeats answer the same. 400 INCOMPLETE_LEAD names ' +
          'the first unanswered step in `fields.step`.',
        tags: ['lead'],
        body: SubmitLeadRequestSchema,
        response: { 202: SubmitAcceptedSchema, 400: ApiErrorSchema, 404: ApiErrorSchema },
      },
    },
    async (request, reply) =>
      inSubmissionSpan(request, reply, async (span) => {
        const leadId = request.sessionLeadId();
        if (leadId) span.setAttribute('funnel.lead.id', leadId);
        const accepted = await app.leads.submit(leadId, request.body, {
          ip: request.ip,
          userAgent: request.headers['user-agent'],
          origin: `${request.protocol}://${request.host}`,
        });
        return reply.code(202).send(accepted);
      }),
  );

  app.get(
    '/lead/events',
    {
      schema: {
        summary: "Server-sent events with the visitor's lead outcome",
        description:
          `Sends the current outcome at once (event \`${OUTCOME_EVENT}\`, id = its sequence number), then every ` +
          'change. Honours `Last-Event-ID`. Comment lines keep the connection alive.',
        tags: ['lead'],
        response: {
          200: z
            .string()
            .describe(
              `text/event-stream: \`event: ${OUTCOME_EVENT}\` lines whose data is the lead outcome as JSON`,
            ),
          404: ApiErrorSchema,
        },
      },
      // A stream of events is no document: the CSP and framing headers would only cost memory per connection.
      config: { documentHeaders: false },
    },
    async (request, reply) => {
      const { id, outcome } = await app.leads.outcomeOf(request.sessionLeadId());
      if (request.method === 'HEAD') return EventStreams.headOnly(reply);
      let lastSent = Number(request.headers['last-event-id'] ?? 0) || 0;
      const stream = streams.start(request, reply);
      const send = (next: LeadOutcome) => {
        if (next.seq <= lastSent) return;
        lastSent = next.seq;
        stream.send({ id: next.seq, event: OUTCOME_EVENT, data: JSON.stringify(next) });
      };
      // Subscribe before reading again, so a change between the first read and now is not lost.
      const unsubscribe = app.outcomeEvents.subscribe(id, send);
      if (outcome) send(outcome);
      const latest = await app.leadStore.getOutcome(id).catch((error: unknown) => {
        app.reportFailure('outcome_reread', error);
        return undefined;
      });
      if (latest) send(latest);
      stream.hold(unsubscribe);
    },
  );
};

export default leadSubmissionRoutes;
