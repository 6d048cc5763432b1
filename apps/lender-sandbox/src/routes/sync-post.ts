import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { SYNC_POST_PATH } from '@funnel/contracts/sync-post-network';
import { errorBody } from '../error-handler.js';
import { LENDER_PAGE_ROUTES } from '../lender-addresses.js';
import type { SyncPostBuyer } from '../sync-post-buyer.js';
import { OFFER_PAGE_HEADING, sendPage } from './lender-pages.js';

const ParamsSchema = z.object({ leadId: z.string() });
const KeyParamsSchema = z.object({ key: z.string() });

/** One simulated sync-post buyer: its post, answered after its latency, and the offer page it redirects to. */
const syncPostRoutes: FastifyPluginAsync<{ buyer: SyncPostBuyer; closing: AbortSignal }> = async (
  app,
  { buyer, closing },
) => {
  app.post(SYNC_POST_PATH, async (request) => {
    const answer = buyer.post(request.body);
    if (answer.delayMs > 0) await sleep(answer.delayMs, undefined, { signal: closing }).catch(() => {});
    return answer.body;
  });

  // Test control, not protocol: the attempt as posted, to compare with the golden payload.
  app.get('/_sandbox/attempts/:key', async (request, reply) => {
    const attempt = buyer.attempt(KeyParamsSchema.parse(request.params).key);
    return (
      attempt ?? reply.code(404).send(errorBody('NOT_FOUND', 'The buyer holds no attempt with this key.'))
    );
  });

  app.get(LENDER_PAGE_ROUTES.offer, async (request, reply) => {
    ParamsSchema.parse(request.params);
    return sendPage(reply, 200, OFFER_PAGE_HEADING, `Offer from ${buyer.profile.id}.`);
  });
};

export default syncPostRoutes;
