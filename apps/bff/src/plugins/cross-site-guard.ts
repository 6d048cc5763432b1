import fp from 'fastify-plugin';
import type { FastifyRequest } from 'fastify';
import { CONSOLE_REQUEST_HEADER } from '@funnel/contracts/console-request-header';
import { HttpError } from '../http-error.js';

/** The operator API (its cookie is scoped here) and the queue dashboard (HTTP Basic, which a browser resends). */
const GUARDED = ['/api/v1/admin/', '/admin/queues'];
const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);
/** `none`: the operator typed the address or used a bookmark, which a POST never is; kept for completeness. */
const OWN_FETCH_SITES = new Set(['same-origin', 'none']);

function isGuarded(request: FastifyRequest): boolean {
  return !SAFE_METHODS.has(request.method) && GUARDED.some((prefix) => request.url.startsWith(prefix));
}

/** True when the browser says the request was made by a page of another origin. */
function crossOrigin(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  if (typeof site === 'string' && !OWN_FETCH_SITES.has(site)) return true;
  const origin = request.headers.origin;
  if (origin === undefined) return false;
  // The host only: behind a proxy that ends TLS the BFF may see http while the page was https.
  try {
    return origin === 'null' || new URL(origin).host !== request.host;
  } catch {
    return true;
  }
}

/** JSON, or a header a page of another origin cannot add without a CORS preflight this API never grants. */
function provesScript(request: FastifyRequest): boolean {
  const type = request.headers['content-type'] ?? '';
  return (
    /^application\/(?:[\w.+-]+\+)?json\b/i.test(type) || request.headers[CONSOLE_REQUEST_HEADER] !== undefined
  );
}

/**
 * Cross-site request forgery (docs/adr/0025). The operator's cookie is SameSite=Strict, but a page on another
 * port or subdomain of the same site is same-site, and its browser sends that cookie. So a state-changing
 * request to the operator API is refused (403) when the browser says it came from another origin
 * (`Sec-Fetch-Site`, or `Origin` against the request's own host), and, unless it carries a bearer token (a
 * machine client: nothing a browser sends on its own), when it is neither JSON nor carries
 * `X-Requested-With`: a body-less form or `no-cors` fetch has neither. Runs before sign-in is looked at, so a
 * forged request neither acts nor keeps a session alive.
 */
export default fp(
  async (app) => {
    app.addHook('onRequest', async (request) => {
      if (!isGuarded(request)) return;
      if (crossOrigin(request)) {
        throw new HttpError(
          403,
          'FORBIDDEN',
          'This request came from another site: it was not made by the console.',
        );
      }
      if (!request.url.startsWith(GUARDED[0]!)) return;
      if (/^Bearer\s/i.test(request.headers.authorization ?? '')) return;
      // Without a cookie there is no session a forged request could ride on (it then meets the usual 401 or 415).
      if (request.headers.cookie === undefined) return;
      if (!provesScript(request)) {
        throw new HttpError(
          403,
          'FORBIDDEN',
          `Send this request as JSON or with the ${CONSOLE_REQUEST_HEADER} header, as the console does.`,
        );
      }
    });
  },
  { name: 'cross-site-guard' },
);
