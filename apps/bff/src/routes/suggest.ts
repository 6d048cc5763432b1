import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import * as z from 'zod';
import {
  AddressSuggestQuerySchema,
  SuggestFieldSchema,
  SuggestQuerySchema,
  SuggestionsSchema,
} from '@funnel/contracts/api';
import { ApiErrorSchema } from '@funnel/contracts/errors';

/** Autocomplete for names, job titles, employers (reference data) and street addresses (a provider). */
const suggestRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/suggest/address',
    {
      config: { rateLimit: {} },
      schema: {
        summary: 'Up to 5 street-address suggestions',
        description:
          'Answered by the provider configured with ADDRESS_SUGGEST_URL; with none configured the list is empty.',
        tags: ['suggest'],
        querystring: AddressSuggestQuerySchema,
        response: { 200: SuggestionsSchema, 400: ApiErrorSchema, 429: ApiErrorSchema },
      },
    },
    async (request) => ({
      suggestions: await app.addressSuggestions.suggest(request.query.q, request.query.zip),
    }),
  );

  app.get(
    '/suggest/:field',
    {
      config: { rateLimit: {} },
      schema: {
        summary: 'Prefix suggestions for first name, last name, job title or employer',
        tags: ['suggest'],
        params: z.object({ field: SuggestFieldSchema }),
        querystring: SuggestQuerySchema,
        response: { 200: SuggestionsSchema, 400: ApiErrorSchema, 429: ApiErrorSchema },
      },
    },
    async (request) => ({
      suggestions: app.referenceData.suggestions.suggest(request.params.field, request.query.q),
    }),
  );
};

export default suggestRoutes;
