import type { ServerResponse } from 'node:http';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { SubmitLeadRequestSchema } from '@funnel/contracts/consent';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { OUTCOME_EVENT, SubmitAcceptedSchema, type LeadOutcome } from '@funnel/contracts/lead-outcome';

export interface SubmissionRouteOptions {
  heartbeatMs: number;
}

/** Submitting the visitor's lead and streaming its outcome back (server-sent events). */
const leadSubmissionRoutes: FastifyPluginAsyncZod<SubmissionRouteOptions> = async (app, { heartbeatMs }) => {
  // Open event streams, each with the function that ends it. They end when the server shuts down, so browsers
  // reconnect to another instance at once. One timer keeps them all alive, not one timer per stream.
  const streams = new Map<ServerResponse, () => void>();
  const heartbeat = setInterval(() => {
    for (const res of streams.keys()) res.write(': keep-alive\n\n');
  }, heartbeatMs);
  heartbeat.unref();
  app.addHook('preClose', async () => {
    clearInterval(heartbeat);
    for (const end of streams.values()) end();
  });

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
    async (request, reply) => {
      const accepted = await app.leads.submit(request.sessionLeadId(), request.body, {
        ip: request.ip,
        userAgent: request.headers['user-agent'],
        origin: `${request.protocol}://${request.host}`,
      });
      return reply.code(202).send(accepted);
    },
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
      // HEAD (which Fastify routes here too) gets the stream's headers and no stream.
      if (request.method === 'HEAD') {
        reply.hijack();
        reply.raw.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-store',
        });
        reply.raw.end();
        return;
      }
      const lastEventId = Number(request.headers['last-event-id'] ?? 0) || 0;
      let lastSent = lastEventId;

      reply.hijack();
      const res = reply.raw;
      res.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      res.write('retry: 2000\n\n');

      const send = (next: LeadOutcome) => {
        if (next.seq <= lastSent) return;
        lastSent = next.seq;
        res.write(`id: ${next.seq}\nevent: ${OUTCOME_EVENT}\ndata: ${JSON.stringify(next)}\n\n`);
      };
      // Subscribe before reading again, so a change between the first read and now is not lost.
      const unsubscribe = app.outcomeEvents.subscribe(id, send);
      if (outcome) send(outcome);
      const latest = await app.leadStore.getOutcome(id).catch(() => undefined);
      if (latest) send(latest);

      const end = () => {
        unsubscribe();
        streams.delete(res);
        res.end();
      };
      streams.set(res, end);
      request.raw.once('close', end);
    },
  );
};

export default leadSubmissionRoutes;
