import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import { ClientLogSchema } from '@funnel/contracts/api';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { scrubClientText } from '../diagnostics/scrub-client-text.js';

/** Browser-side error reports (spec §7 /logs), size-capped, rate-limited and scrubbed before logging. */
const clientLogRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/logs',
    {
      bodyLimit: 8 * 1024,
      config: { rateLimit: { max: 20 } },
      schema: {
        summary: 'Report a browser-side error',
        tags: ['diagnostics'],
        body: ClientLogSchema,
        response: { 204: z.null(), 400: ApiErrorSchema, 413: ApiErrorSchema, 429: ApiErrorSchema },
      },
    },
    async (request, reply) => {
      const { pretext, text, type, errorResponse } = request.body;
      request.log.warn(
        {
          clientLog: {
            type: type ?? 'error',
            pretext: scrubClientText(pretext),
            text: scrubClientText(text),
            ...(errorResponse ? { errorResponse: scrubClientText(errorResponse) } : {}),
          },
        },
        'client report',
      );
      return reply.code(204).send(null);
    },
  );
};

export default clientLogRoutes;
