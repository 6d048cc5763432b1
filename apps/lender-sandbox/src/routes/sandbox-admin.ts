import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import { fieldErrors } from '@funnel/contracts/errors';
import type { SandboxStats } from '@funnel/contracts/lender-sandbox';
import { errorBody } from '../error-handler.js';
import { OutcomeConfigPatchSchema, applyConfigPatch } from '../sandbox-config.js';
import type { SandboxServices } from '../sandbox-services.js';

const LeadParamsSchema = z.object({ partnerLeadId: z.string() });

/**
 * Test and benchmark controls under /_sandbox: counters, reset, run-time configuration, and the payload a lead
 * was posted with. Not part of the network's protocol; no fault is ever injected here.
 */
const sandboxAdminRoutes: FastifyPluginAsync<SandboxServices> = async (app, { simulator, faults }) => {
  app.get('/_sandbox/stats', async (): Promise<SandboxStats> => ({
    ...simulator.stats(),
    faults: faults.counts(),
    oversizedPeakInFlight: faults.oversizedPeakInFlight(),
  }));

  app.post('/_sandbox/reset', async (_request, reply) => {
    simulator.reset();
    faults.reset();
    return reply.code(204).send();
  });

  app.get('/_sandbox/config', async () => simulator.config);

  app.put('/_sandbox/config', async (request, reply) => {
    const patch = OutcomeConfigPatchSchema.safeParse(request.body ?? {});
    if (!patch.success) return reply.code(400).send(invalidConfig(patch.error));
    const next = applyConfigPatch(simulator.config, patch.data);
    if (!next.success) return reply.code(400).send(invalidConfig(next.error));
    simulator.config = next.data;
    return next.data;
  });

  app.get('/_sandbox/leads/:partnerLeadId', async (request, reply) => {
    const { partnerLeadId } = LeadParamsSchema.parse(request.params);
    const lead = simulator.lead(partnerLeadId);
    return lead ?? reply.code(404).send(errorBody('NOT_FOUND', 'The sandbox holds no lead with this id.'));
  });
};

function invalidConfig(error: z.ZodError) {
  const fields = fieldErrors(error);
  return errorBody('VALIDATION_FAILED', Object.values(fields)[0] ?? 'Invalid configuration.', fields);
}

export default sandboxAdminRoutes;
