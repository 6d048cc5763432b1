import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';
import type { SandboxServices } from '../sandbox-services.js';

const LookupParamsSchema = z.object({ key: z.string(), phone: z.string() });

/**
 * Plays a litigator list, Blacklist Alliance's single-number lookup (its "standard" API, v3), for the worker's
 * screening (issue 41): `GET /blacklist-alliance/standard/api/v3/Lookup/key/{key}/phone/{phone}/response/json`.
 * A number whose last four digits are 9900–9999 is a listed litigator; every other is good. A key other than
 * `litigatorApiKey` is refused as the service refuses it (plain text); each answer waits `litigatorDelayMs`
 * (PUT /_sandbox/config), so a test can hold one past the worker's timeout.
 */
const litigatorListRoutes: FastifyPluginAsync<SandboxServices & { apiKey: string }> = async (
  app,
  { simulator, apiKey },
) => {
  app.get(
    '/blacklist-alliance/standard/api/v3/Lookup/key/:key/phone/:phone/response/json',
    async (request, reply) => {
      const { key, phone } = LookupParamsSchema.parse(request.params);
      const delayMs = simulator.config.litigatorDelayMs;
      if (delayMs > 0) await new Promise((resolve) => setTimeout(resolve, delayMs));
      if (key !== apiKey) return reply.type('text/plain').send('API Key Not Found');
      const digits = phone.replace(/\D/g, '').slice(-10);
      const listed = /^\d{6}99\d\d$/.test(digits);
      return {
        status: 'success',
        sid: `sandbox-${digits}`,
        message: listed ? 'Blacklisted' : 'Good',
        code: listed ? 'tcpa-litigator,prelitigation1' : '',
        offset: 0,
        wireless: 0,
        phone: digits,
        results: listed ? 1 : 0,
        time: 1,
        scrubs: true,
      };
    },
  );
};

export default litigatorListRoutes;
