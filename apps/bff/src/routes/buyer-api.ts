import { createHash } from 'node:crypto';
import * as z from 'zod';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { ApiErrorSchema, type ErrorCode } from '@funnel/contracts/errors';
import {
  BuyerConversionRequestSchema,
  BuyerConversionSchema,
  BuyerReturnRequestSchema,
  BuyerReturnSchema,
  RETURN_REASONS,
} from '@funnel/contracts/buyer-api';
import { returnPolicyOf, type BuyersFile } from '@funnel/contracts/buyers';
import { IDEMPOTENCY_KEY_HEADER } from '@funnel/contracts/partner-api';
import type { Database } from '@funnel/db/database';
import { fileConversion } from '@funnel/db/buyer-conversions';
import type { BuyerRequestResult } from '@funnel/db/buyer-requests';
import { fileReturn } from '@funnel/db/buyer-returns';
import type { BuyerApiKey } from '../buyer-api/buyer-keys.js';
import { HttpError } from '../http-error.js';
import { requestFingerprint } from '../partner-api/partner-idempotency.js';
import { findHashedKey } from '../partner-api/partner-keyring.js';
import { bearerKey } from '../plugins/partner-auth.js';
import { readSystemOfRecord } from '../system-of-record/read-system-of-record.js';

export interface BuyerApiRouteOptions {
  /** The system of record; undefined when DATABASE_URL is not set (the buyer API then answers 503). */
  db: Kysely<Database> | undefined;
  keys: readonly BuyerApiKey[];
  /** The buyers document (ADR 0022): each buyer's return terms (defaults for a buyer it does not list). */
  buyers: () => Promise<BuyersFile | undefined>;
  /** Return caps count calendar periods in this zone when there is no buyers file. */
  timeZone: string;
  now: () => Date;
}

declare module 'fastify' {
  interface FastifyRequest {
    /** The buyer whose API key authenticated this request (buyer API routes only). */
    buyerKey: BuyerApiKey | null;
  }
}

const RATE_WINDOW_MS = 60_000;
const security = [{ buyerApiKey: [] }];
const KEY_REQUIRED =
  'Idempotency-Key is required: 1 to 255 printable ASCII characters, the same on every retry of one request.';
const headers = z.looseObject({
  [IDEMPOTENCY_KEY_HEADER]: z
    .string({ error: KEY_REQUIRED })
    .regex(/^[\x21-\x7e]{1,255}$/, { error: KEY_REQUIRED }),
});
const errors = {
  400: ApiErrorSchema,
  401: ApiErrorSchema,
  404: ApiErrorSchema,
  409: ApiErrorSchema,
  422: ApiErrorSchema,
  429: ApiErrorSchema,
  503: ApiErrorSchema,
};

function buyerOf(request: { buyerKey: BuyerApiKey | null }): BuyerApiKey {
  if (!request.buyerKey) throw new HttpError(401, 'UNAUTHORIZED', 'A valid buyer API key is required.');
  return request.buyerKey;
}

/** A refusal as the API's one error shape; every refusal names the field it is about. */
const REFUSALS: Record<string, { status: number; code: ErrorCode; field: string }> = {
  no_sale: { status: 404, code: 'NOT_FOUND', field: 'reference' },
  window_closed: { status: 422, code: 'RETURN_WINDOW_CLOSED', field: 'reference' },
  cap_reached: { status: 422, code: 'RETURN_CAP_REACHED', field: 'reference' },
  already_reported: { status: 409, code: 'ALREADY_REPORTED', field: 'reference' },
  key_reused: { status: 422, code: 'IDEMPOTENCY_KEY_REUSED', field: IDEMPOTENCY_KEY_HEADER },
};

/** The created resource (201, or 200 with `Idempotent-Replayed: true` for a repeat), or the refusal. */
function answer<T>(reply: FastifyReply, result: BuyerRequestResult<T>): T {
  if ('refused' in result) {
    const { status, code, field } = REFUSALS[result.refused]!;
    throw new HttpError(status, code, result.message, { [field]: result.message });
  }
  if (result.replayed) reply.header('idempotent-replayed', 'true');
  reply.code(result.replayed ? 200 : 201);
  return result.created;
}

/** What an `Idempotency-Key` is stored as: its SHA-256 (buyers may use their own references as keys). */
function keyHash(key: string): string {
  return createHash('sha256').update(key).digest('base64url');
}

/**
 * The buyer API (ADR 0020, "Returns and conversions"): a buyer returns a lead it bought or reports its
 * conversion. Authenticated by the buyer's own API key, rate-limited per buyer, written straight to the system
 * of record.
 */
const buyerApiRoutes: FastifyPluginAsyncZod<BuyerApiRouteOptions> = async (app, options) => {
  app.decorateRequest('buyerKey', null);
  const authenticate = async (request: FastifyRequest, reply: FastifyReply) => {
    const presented = bearerKey(request);
    const key = presented ? findHashedKey(options.keys, presented) : undefined;
    if (!key) {
      reply.header('www-authenticate', 'Bearer realm="buyer-api"');
      throw new HttpError(
        401,
        'UNAUTHORIZED',
        'A valid buyer API key is required: Authorization: Bearer <key>.',
      );
    }
    request.buyerKey = key;
  };
  const perBuyerLimit = app.rateLimit({
    keyGenerator: (request) => `buyer-api:${buyerOf(request).buyerId}`,
    max: (request) => buyerOf(request).ratePerMinute,
    timeWindow: RATE_WINDOW_MS,
  });
  const onRequest = [authenticate, perBuyerLimit];
  /** The buyer, its `Idempotency-Key` and the body it is bound to. */
  const requestKey = (
    request: { buyerKey: BuyerApiKey | null; headers: z.infer<typeof headers> },
    body: unknown,
  ) => ({
    buyer: buyerOf(request).buyerId,
    keyHash: keyHash(request.headers[IDEMPOTENCY_KEY_HEADER]),
    fingerprint: requestFingerprint(body),
  });

  app.post(
    '/buyer/returns',
    {
      onRequest,
      schema: {
        summary: 'Return a lead you bought',
        description:
          'Within your return window after the sale and under your return cap (your terms: ADR 0020, ' +
          '"Returns and conversions"), with a reason code: ' +
          `${RETURN_REASONS.join(', ')}. Answers 201 with the return, \`approved\` (the sale's revenue is ` +
          'reversed) or `pending` (an operator decides); a repeat with the same `Idempotency-Key` and body ' +
          'answers 200 with the return as it stands now and `Idempotent-Replayed: true`. Refusals name the ' +
          'field: 404 no sale to you under `reference`; 422 `RETURN_WINDOW_CLOSED` or `RETURN_CAP_REACHED`; 409 ' +
          '`ALREADY_REPORTED`; 422 `IDEMPOTENCY_KEY_REUSED` for a key used with another body.',
        tags: ['buyer-api'],
        security,
        headers,
        body: BuyerReturnRequestSchema,
        response: { 200: BuyerReturnSchema, 201: BuyerReturnSchema, ...errors },
      },
    },
    async (request, reply) => {
      const buyers = await options.buyers();
      const buyerId = buyerOf(request).buyerId;
      const result = await readSystemOfRecord(options.db, 'Returns', request.log, (db) =>
        fileReturn(db, {
          ...requestKey(request, request.body),
          request: request.body,
          policy: returnPolicyOf(buyers?.buyers.find((buyer) => buyer.id === buyerId)),
          timeZone: buyers?.timeZone ?? options.timeZone,
          now: options.now(),
        }),
      );
      const created = answer(reply, result);
      // Queued again on a replay too: the job id makes it one job, and a crash after the commit loses nothing.
      if (created.status === 'approved') await app.leadJobs.payoutReversal(created.leadId);
      return created;
    },
  );

  app.post(
    '/buyer/conversions',
    {
      onRequest,
      schema: {
        summary: 'Report what became of a lead you bought',
        description:
          '`funded: true` with the loan `amount` in dollars, or `funded: false`; once per sale. Answers 201 ' +
          'with the conversion; a repeat with the same `Idempotency-Key` and body answers 200 with ' +
          '`Idempotent-Replayed: true`. 404 no sale to you under `reference`; 409 `ALREADY_REPORTED`; 422 ' +
          '`IDEMPOTENCY_KEY_REUSED`.',
        tags: ['buyer-api'],
        security,
        headers,
        body: BuyerConversionRequestSchema,
        response: { 200: BuyerConversionSchema, 201: BuyerConversionSchema, ...errors },
      },
    },
    async (request, reply) => {
      const result = await readSystemOfRecord(options.db, 'Conversions', request.log, (db) =>
        fileConversion(db, {
          ...requestKey(request, request.body),
          request: request.body,
          now: options.now(),
        }),
      );
      return answer(reply, result);
    },
  );
};

export default buyerApiRoutes;
