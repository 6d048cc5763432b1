import fp from 'fastify-plugin';

/** When this site's handling of the signal last changed, as /.well-known/gpc.json publishes it. */
const GPC_POLICY_UPDATED = '2026-11-21';

/**
 * Global Privacy Control (docs/product-rules.md §privacy-requests): a request carrying `Sec-GPC: 1` from a visitor who has a lead is a
 * do-not-sell request for that lead. The check runs on every response rather than in chosen routes, so
 * creating a lead (the lead it just created counts), saving a step, reading the lead back and the privacy forms
 * all honour it, and so will any route added later. The session cookie is scoped to /api, so requests for
 * the web app's files never reach Redis here.
 *
 * It runs before the response leaves, so the flag is stored by the time the visitor sees the answer. A failure
 * to store it is logged and does not fail the visitor's request: the next request carrying the header tries
 * again. `/.well-known/gpc.json` tells user agents that the site honours the signal.
 */
export default fp(
  async (app) => {
    app.addHook('onSend', async (request, _reply, payload) => {
      if (request.headers['sec-gpc'] !== '1') return payload;
      const leadId = request.sessionLeadId();
      if (!leadId) return payload;
      try {
        await app.privacyRequests.honourGlobalPrivacyControl(leadId);
      } catch (err) {
        request.log.error({ err }, 'could not record a Global Privacy Control signal');
      }
      return payload;
    });

    app.get('/.well-known/gpc.json', { schema: { hide: true } }, async () => ({
      gpc: true,
      lastUpdate: GPC_POLICY_UPDATED,
    }));
  },
  { name: 'global-privacy-control', dependencies: ['lead-session', 'privacy-services'] },
);
