import type { FastifyPluginAsync } from 'fastify';
import { fieldErrors } from '@funnel/contracts/errors';
import { LENDER_NETWORK_PATHS, SubmissionPayloadSchema } from '@funnel/contracts/lender-network';
import type { SandboxServices } from '../sandbox-services.js';

/** POST /personal_loan/lead/send/v2: the lender network's lead submission. */
const leadSendRoutes: FastifyPluginAsync<SandboxServices> = async (app, { simulator, faults }) => {
  app.post(LENDER_NETWORK_PATHS.submit, async (request, reply) => {
    const parsed = SubmissionPayloadSchema.safeParse(request.body);
    const answer = parsed.success
      ? simulator.submit(parsed.data, request.body)
      : simulator.rejectInvalidPost(fieldErrors(parsed.error));
    return faults.deliver(request, reply, answer);
  });
};

export default leadSendRoutes;
