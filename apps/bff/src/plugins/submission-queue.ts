import fp from 'fastify-plugin';
import { Queue } from 'bullmq';
import { JOBS, queuePrefix, type SubmitLeadJob } from '@funnel/contracts/jobs';

declare module 'fastify' {
  interface FastifyInstance {
    submissionQueue: Queue<SubmitLeadJob>;
  }
}

/** The producer side of the lead-submission queue; the worker consumes it. */
export default fp<{ keyPrefix: string }>(
  async (app, { keyPrefix }) => {
    const queue = new Queue<SubmitLeadJob>(JOBS.submitLead.queue, {
      connection: app.redis,
      prefix: queuePrefix(keyPrefix),
    });
    queue.on('error', (err) => app.log.warn({ err: err.message }, 'submission queue error'));
    app.decorate('submissionQueue', queue);
    app.addHook('onClose', async () => {
      await queue.close();
    });
  },
  { name: 'submission-queue', dependencies: ['redis'] },
);
