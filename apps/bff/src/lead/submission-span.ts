import type { FastifyReply, FastifyRequest } from 'fastify';
import { SpanKind, inSpan, type Span } from '@funnel/server-runtime/tracing';

/**
 * Runs a submission request's handler in the first span of the lead's trace (docs/tracing.md), named by its route
 * pattern, under the caller's own trace when it sends a `traceparent`. The request id joins the two ids.
 */
export function inSubmissionSpan<T>(
  request: FastifyRequest,
  reply: FastifyReply,
  work: (span: Span) => Promise<T>,
): Promise<T> {
  const route = request.routeOptions.url ?? request.url.split('?')[0] ?? '';
  const traceparent = request.headers.traceparent;
  return inSpan(
    `${request.method} ${route}`,
    {
      kind: SpanKind.SERVER,
      traceparent: typeof traceparent === 'string' ? traceparent : undefined,
      attributes: {
        'http.request.method': request.method,
        'http.route': route,
        'funnel.request.id': request.id,
      },
    },
    async (span) => {
      const result = await work(span);
      span.setAttribute('http.response.status_code', reply.statusCode);
      return result;
    },
  );
}
