import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { PartnersSchema } from '@funnel/contracts/privacy';
import { PartnerDirectory } from '../partners/partner-directory.js';

export interface PartnerRouteOptions {
  keyPrefix: string;
  fixedNames: readonly string[];
  sourceUrl: string | undefined;
}

const SOURCE_TIMEOUT_MS = 2000;
const CACHE_TTL_MS = 5 * 60 * 1000;
const FAILURE_TTL_MS = 30 * 1000;

/** The Partners page's list: configured names plus those of the partner source (spec §2, §7). */
const partnerRoutes: FastifyPluginAsyncZod<PartnerRouteOptions> = async (app, options) => {
  const directory = new PartnerDirectory(app.redis, {
    keyPrefix: options.keyPrefix,
    fixedNames: options.fixedNames,
    source: options.sourceUrl ? { url: options.sourceUrl, timeoutMs: SOURCE_TIMEOUT_MS } : undefined,
    cacheTtlMs: CACHE_TTL_MS,
    failureTtlMs: FAILURE_TTL_MS,
    reportFailure: app.reportFailure,
  });

  app.get(
    '/partners',
    {
      schema: {
        summary: 'Partner company names for the Partners page',
        description:
          'The configured names (PARTNER_NAMES), then the names the partner source (PARTNER_SOURCE_URL) adds, ' +
          'cached for 5 minutes. A failing or slow source (2 s) leaves the configured names.',
        tags: ['partners'],
        response: { 200: PartnersSchema },
      },
    },
    async () => ({ partners: await directory.names() }),
  );
};

export default partnerRoutes;
