import * as z from 'zod';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { BankLookupSchema, ZipPlaceSchema } from '@funnel/contracts/api';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { ROUTING_NUMBER_INVALID, ZIP_CODE_NOT_FOUND } from '@funnel/contracts/messages';
import { isValidRoutingNumber } from '@funnel/contracts/rules/aba';
import { HttpError } from '../http-error.js';

/** ZIP and routing-number lookups backing the landing and bank screens. */
const lookupRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/lookup/zip/:zip',
    {
      config: { rateLimit: {} },
      schema: {
        summary: 'City, state and position of a US ZIP code',
        tags: ['lookup'],
        params: z.object({ zip: z.string() }),
        response: { 200: ZipPlaceSchema, 404: ApiErrorSchema, 429: ApiErrorSchema },
      },
    },
    async (request) => {
      const place = /^\d{5}$/.test(request.params.zip)
        ? app.referenceData.zips.lookup(request.params.zip)
        : undefined;
      if (!place) throw new HttpError(404, 'NOT_FOUND', ZIP_CODE_NOT_FOUND);
      return place;
    },
  );

  app.get(
    '/lookup/routing/:routingNumber',
    {
      config: { rateLimit: {} },
      schema: {
        summary: 'Bank name for an ABA routing number',
        description:
          '400 when the check digit is wrong; 404 when the number is valid but unknown, so the screen asks the ' +
          'visitor for the bank name.',
        tags: ['lookup'],
        params: z.object({ routingNumber: z.string() }),
        response: { 200: BankLookupSchema, 400: ApiErrorSchema, 404: ApiErrorSchema, 429: ApiErrorSchema },
      },
    },
    async (request) => {
      const { routingNumber } = request.params;
      if (!isValidRoutingNumber(routingNumber)) {
        throw new HttpError(400, 'VALIDATION_FAILED', ROUTING_NUMBER_INVALID, {
          routingNumber: ROUTING_NUMBER_INVALID,
        });
      }
      const bank = await app.routingLookup.lookup(routingNumber);
      if (!bank) throw new HttpError(404, 'NOT_FOUND', 'This routing number is not in our bank directory.');
      return bank;
    },
  );
};

export default lookupRoutes;
