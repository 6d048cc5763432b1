import type { FastifyPluginAsync, FastifyReply } from 'fastify';
import * as z from 'zod';
import { LEAD_STATUS } from '@funnel/contracts/lender-network';
import { LENDER_PAGE_ROUTES } from '../lender-addresses.js';
import type { SandboxServices } from '../sandbox-services.js';

/** The offer page's title and heading; browser tests assert this text. */
export const OFFER_PAGE_HEADING = 'You have arrived at the lender';
export const DECLINED_PAGE_HEADING = 'The lender declined your request';

const ParamsSchema = z.object({ leadId: z.string() });
const dollars = new Intl.NumberFormat('en-US', {
  style: 'currency',
  currency: 'USD',
  maximumFractionDigits: 0,
});

/**
 * The pages the sandbox's sold and reject addresses lead to, standing in for a lender's site so a browser test
 * can see the borrower arrive. Only a sold lead has an offer page and only a rejected one a declined page.
 */
const lenderPageRoutes: FastifyPluginAsync<SandboxServices> = async (app, { simulator }) => {
  app.get(LENDER_PAGE_ROUTES.offer, async (request, reply) => {
    const lead = simulator.pageLead(ParamsSchema.parse(request.params).leadId);
    if (lead?.status !== LEAD_STATUS.SOLD)
      return sendPage(reply, 404, 'Offer not found', 'No offer for this lead.');
    return sendPage(
      reply,
      200,
      OFFER_PAGE_HEADING,
      `Your loan request for <strong data-testid="amount">${dollars.format(lead.loanAmount)}</strong> has reached the sandbox lender.`,
    );
  });

  app.get(LENDER_PAGE_ROUTES.declined, async (request, reply) => {
    const lead = simulator.pageLead(ParamsSchema.parse(request.params).leadId);
    if (lead?.status !== LEAD_STATUS.REJECTED)
      return sendPage(reply, 404, 'Page not found', 'No decision for this lead.');
    return sendPage(
      reply,
      200,
      DECLINED_PAGE_HEADING,
      `The sandbox lender could not offer a loan of ${dollars.format(lead.loanAmount)}.`,
    );
  });
};

/** `title` is a constant and `bodyHtml` holds only constants and formatted numbers, so nothing needs escaping. */
export function sendPage(reply: FastifyReply, status: number, title: string, bodyHtml: string): FastifyReply {
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('content-security-policy', "default-src 'none'; style-src 'unsafe-inline'")
    .send(
      `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${title}</title>
<style>body{font-family:system-ui,sans-serif;max-width:40rem;margin:4rem auto;padding:0 1rem;color:#1a1a1a}</style>
</head>
<body>
<h1>${title}</h1>
<p>${bodyHtml}</p>
<p><small>Lender sandbox: a stand-in for a lender's site in local runs and tests.</small></p>
</body>
</html>
`,
    );
}

export default lenderPageRoutes;
