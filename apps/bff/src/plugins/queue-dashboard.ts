import { createHash, timingSafeEqual } from 'node:crypto';
import fp from 'fastify-plugin';
import { Queue } from 'bullmq';
import { createBullBoard } from '@bull-board/api';
import { BullMQAdapter } from '@bull-board/api/bullMQAdapter';
import { FastifyAdapter } from '@bull-board/fastify';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';

const BASE_PATH = '/admin/queues';

const sha256 = (text: string) => createHash('sha256').update(text).digest();

/**
 * bull-board at /admin/queues, behind the operator token: `Authorization: Bearer <token>`, or HTTP Basic with the
 * token as password so a browser can open it (it prompts). Read-only unless `writable` (retry, remove, pause).
 */
export default fp<{ token: string | undefined; keyPrefix: string; writable: boolean }>(
  async (app, { token, keyPrefix, writable }) => {
    const expected = token ? sha256(token) : undefined;
    const queueNames = Object.values(JOBS).map((job) => job.queue);
    const queues = queueNames.map(
      (name) => new Queue(name, { connection: app.redis, prefix: queuePrefix(keyPrefix) }),
    );
    for (const queue of queues) queue.on('error', () => undefined);
    const serverAdapter = new FastifyAdapter();
    createBullBoard({
      queues: queues.map((queue) => new BullMQAdapter(queue, { readOnlyMode: !writable })),
      serverAdapter,
    });
    serverAdapter.setBasePath(BASE_PATH);

    await app.register(async (scoped) => {
      scoped.addHook('onRequest', async (request, reply) => {
        const header = request.headers.authorization ?? '';
        const bearer = /^Bearer (\S+)$/.exec(header)?.[1];
        const basic = /^Basic (\S+)$/.exec(header)?.[1];
        const presented =
          bearer ??
          (basic ? Buffer.from(basic, 'base64').toString().split(':').slice(1).join(':') : undefined);
        if (expected && presented && timingSafeEqual(sha256(presented), expected)) return;
        return reply
          .code(401)
          .header('www-authenticate', 'Basic realm="operator", charset="UTF-8"')
          .send({
            error: {
              code: 'UNAUTHORIZED',
              message: 'A valid operator token is required.',
              requestId: request.id,
            },
          });
      });
      await scoped.register(serverAdapter.registerPlugin(), { prefix: BASE_PATH });
    });

    app.addHook('onClose', async () => {
      await Promise.all(queues.map((queue) => queue.close()));
    });
  },
  { name: 'queue-dashboard', dependencies: ['redis'] },
);
