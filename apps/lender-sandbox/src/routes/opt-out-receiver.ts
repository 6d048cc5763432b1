import type { FastifyPluginAsync } from 'fastify';
import * as z from 'zod';

/** The most notices kept; the oldest are forgotten beyond this. */
const MAX_KEPT = 1000;

/** A notice as the buyer received it: the Standard Webhooks headers, the body as sent, and what it answered. */
interface ReceivedNotice {
  buyer: string;
  webhookId: string | undefined;
  webhookTimestamp: string | undefined;
  webhookSignature: string | undefined;
  body: string;
  status: number;
}

const FailuresSchema = z.object({ failNext: z.number().int().min(0).max(100) }).strict();

/**
 * Plays the buyers' side of opt-out notices (issue 41): `POST /buyers/{id}/opt-outs` takes a notice and answers
 * 204, or 503 while `failNext` (`PUT /_sandbox/opt-outs`) is above zero, so a test sees the worker retry.
 * The sandbox holds no buyer's secret: it keeps each notice with its signature headers, as received, for the test
 * to verify (`GET /_sandbox/opt-outs`); `DELETE /_sandbox/opt-outs` forgets them.
 */
const optOutReceiverRoutes: FastifyPluginAsync = async (app) => {
  const received: ReceivedNotice[] = [];
  let failNext = 0;

  app.addContentTypeParser('application/json', { parseAs: 'string' }, (_request, body, done) =>
    done(null, body),
  );

  app.post('/buyers/:buyer/opt-outs', async (request, reply) => {
    const { buyer } = z.object({ buyer: z.string() }).parse(request.params);
    const header = (name: string) => {
      const value = request.headers[name];
      return typeof value === 'string' ? value : undefined;
    };
    const status = failNext > 0 ? 503 : 204;
    if (failNext > 0) failNext -= 1;
    received.push({
      buyer,
      webhookId: header('webhook-id'),
      webhookTimestamp: header('webhook-timestamp'),
      webhookSignature: header('webhook-signature'),
      body: typeof request.body === 'string' ? request.body : '',
      status,
    });
    if (received.length > MAX_KEPT) received.shift();
    return reply.code(status).send();
  });

  app.get('/_sandbox/opt-outs', async () => ({ notices: received }));
  app.put('/_sandbox/opt-outs', async (request, reply) => {
    ({ failNext } = FailuresSchema.parse(request.body === undefined ? {} : JSON.parse(String(request.body))));
    return reply.code(204).send();
  });
  app.delete('/_sandbox/opt-outs', async (_request, reply) => {
    received.length = 0;
    failNext = 0;
    return reply.code(204).send();
  });
};

export default optOutReceiverRoutes;
