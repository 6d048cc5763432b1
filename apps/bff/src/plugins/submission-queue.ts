import fp from 'fastify-plugin';
import { Queue, type Telemetry } from 'bullmq';
import { JOBS, queuePrefix, type SubmitLeadJob } from '@funnel/contracts/jobs';

declare module 'fastify' {
  interface FastifyInstance {
    submissionQueue: Queue<SubmitLeadJob>;
  }
}

/**
 * The producer side of the lead-submission queue; the worker consumes it. With `telemetry` (tracing on), adding
 * a job is a span of the submit request's trace, and the job carries that trace to the worker.
 */
export default fp<{ keyPrefix: string; telemetry?: Telemetry | undefined }>(
  async (app, { keyPrefix, telemetry }) => {
    const queue = new Queue<SubmitLeadJob>(JOBS.submitLead.queue, {
      connection: app.redis,
      prefix: queuePrefix(keyPrefix),
      ...(telemetry ? { telemetry } : {}),
    });
    queue.on('error', (err) => app.log.warn({ err: err.message }, 'submission queue error'));
    app.decorate('submissionQueue', queue);
    app.addHook('onClose', async () => {
      await queue.close();
    });
  },
  { name: 'submission-queue', dependencies: ['redis'] },
);
