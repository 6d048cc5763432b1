import type { FastifyPluginAsync } from 'fastify';
import { fieldErrors } from '@funnel/contracts/errors';
import { LENDER_NETWORK_PATHS, PingQuerySchema } from '@funnel/contracts/lender-network';
import type { SandboxServices } from '../sandbox-services.js';

/** GET /personal_loan/lead/ping/v2?lead_id&checkKey&utm_source: the lender network's status poll. */
const leadPingRoutes: FastifyPluginAsync<SandboxServices> = async (app, { simulator, faults }) => {
  app.get(LENDER_NETWORK_PATHS.ping, async (request, reply) => {
    const parsed = PingQuerySchema.safeParse(request.query);
    const answer = parsed.success
      ? simulator.ping(parsed.data)
      : simulator.rejectInvalidPing(fieldErrors(parsed.error));
    return faults.deliver(request, reply, answer);
  });
};

export default leadPingRoutes;
