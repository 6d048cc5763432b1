import type { FastifyPluginAsync } from 'fastify';
import { fieldErrors } from '@funnel/contracts/errors';
import { LENDER_NETWORK_PATHS, SubmissionPayloadSchema } from '@funnel/contracts/lender-network';
import type { SandboxServices } from '../sandbox-services.js';

/** POST /personal_loan/lead/send/v2: the lender network's lead submission. */
const leadSendRoutes: FastifyPluginAsync<SandboxServices> = async (app, { simulator, faults }) => {
  app.post(LENDER_NETWORK_PATHS.submit, async (request, reply) => {
    const parsed = SubmissionPayloadSchema.safeParse(request.body);
    const answer = parsed.success
      ? simulator.submit(parsed.data, request.body, traceparentOf(request.headers.traceparent))
      : simulator.rejectInvalidPost(fieldErrors(parsed.error));
    return faults.deliver(request, reply, answer);
  });
};

/** The post's `traceparent` header when sent once. */
function traceparentOf(header: string | string[] | undefined): string | undefined {
  return typeof header === 'string' ? header : undefined;
}

export default leadSendRoutes;
