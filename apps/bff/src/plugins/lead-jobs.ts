import fp from 'fastify-plugin';
import { LeadJobs } from '../jobs/lead-jobs.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Follow-up jobs of a lead (mailing list, cross-sell) and their removal on erasure. */
    leadJobs: LeadJobs;
  }
}

/** The producer side of the follow-up queues; the worker consumes them. */
export default fp<{ keyPrefix: string }>(
  async (app, { keyPrefix }) => {
    const jobs = new LeadJobs(app.redis, keyPrefix, (err) =>
      app.log.warn({ err: err.message }, 'follow-up queue error'),
    );
    app.decorate('leadJobs', jobs);
    app.addHook('onClose', async () => {
      await jobs.close();
    });
  },
  { name: 'lead-jobs', dependencies: ['redis'] },
);
