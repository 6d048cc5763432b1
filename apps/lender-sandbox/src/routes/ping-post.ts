import { setTimeout as sleep } from 'node:timers/promises';
import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { PING_POST_PATHS } from '@funnel/contracts/ping-post-network';
import { errorBody } from '../error-handler.js';
import { LENDER_PAGE_ROUTES } from '../lender-addresses.js';
import type { PingPostBuyer } from '../ping-post-buyer.js';
import { OFFER_PAGE_HEADING, sendPage } from './lender-pages.js';

const ParamsSchema = z.object({ leadId: z.string() });
const KeyParamsSchema = z.object({ key: z.string() });

/**
 * One simulated ping/post buyer: its ping and post, each answered after its latency, the recording of what its
 * pings carried, and the offer page it redirects to.
 */
const pingPostRoutes: FastifyPluginAsync<{ buyer: PingPostBuyer; closing: AbortSignal }> = async (
  app,
  { buyer, closing },
) => {
  const answerAfterDelay = async (answer: { status: number; body: unknown; delayMs: number }) => {
    if (answer.delayMs > 0) await sleep(answer.delayMs, undefined, { signal: closing }).catch(() => {});
    return answer;
  };

  app.post(PING_POST_PATHS.ping, async (request, reply) => {
    const answer = await answerAfterDelay(buyer.ping(request.body));
    return reply.code(answer.status).send(answer.body);
  });

  app.post(PING_POST_PATHS.post, async (request, reply) => {
    const answer = await answerAfterDelay(buyer.post(request.body));
    return reply.code(answer.status).send(answer.body);
  });

  // Test control, not protocol: what the pings carried (the no-identifying-field proof).
  app.get('/_sandbox/pings', async () => buyer.recording());

  // Test control, not protocol: the post as first received, to compare with the golden payload.
  app.get('/_sandbox/attempts/:key', async (request, reply) => {
    const attempt = buyer.attempt(KeyParamsSchema.parse(request.params).key);
    return attempt ?? reply.code(404).send(errorBody('NOT_FOUND', 'The buyer holds no post with this key.'));
  });

  app.get(LENDER_PAGE_ROUTES.offer, async (request, reply) => {
    ParamsSchema.parse(request.params);
    return sendPage(reply, 200, OFFER_PAGE_HEADING, `Offer from ${buyer.profile.id}.`);
  });
};

export default pingPostRoutes;
