import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { FUNNEL_NOW, STEP_ANSWERS } from './funnel-answers.js';
import { SUBMIT, answeredLead } from './complete-lead.js';
import { startTestApp, type TestApp } from './test-app.js';

describe('mailing-list sync jobs', () => {
  let t: TestApp;
  let queue: Queue;
  beforeAll(async () => {
    t = await startTestApp({ now: () => FUNNEL_NOW });
    queue = new Queue(JOBS.mailingListSync.queue, {
      connection: t.redis,
      prefix: queuePrefix(t.env.REDIS_KEY_PREFIX),
    });
  });
  afterAll(async () => {
    await queue.close();
    await t.close();
  });

  const jobsOf = async (id: string) =>
    (await queue.getJobs(['waiting', 'delayed', 'active'])).filter((job) => job.data.leadId === id);

  it('queues a sync when the email step is saved and again on submission, with the lead id only', async () => {
    const { cookie, id } = await answeredLead(t.app, { steps: STEP_ANSWERS.slice(0, 1) });
    expect(await jobsOf(id)).toEqual([]);

    const rest = STEP_ANSWERS.slice(1);
    for (const [step, body] of rest) {
      await t.app.inject({
        method: 'PUT',
        url: `/api/v1/lead/steps/${step}`,
        payload: body,
        headers: { cookie },
      });
    }
    expect((await jobsOf(id)).map((job) => job.id)).toEqual([`${id}.email-saved`]);

    await t.app.inject({ method: 'POST', url: '/api/v1/lead/submit', payload: SUBMIT, headers: { cookie } });
    await t.app.inject({ method: 'POST', url: '/api/v1/lead/submit', payload: SUBMIT, headers: { cookie } });
    const jobs = await jobsOf(id);
    expect(jobs.map((job) => job.id).sort()).toEqual([`${id}.email-saved`, `${id}.submitted`]);
    for (const job of jobs) {
      expect(job.name).toBe(JOBS.mailingListSync.name);
      expect(job.data).toEqual({ leadId: id });
    }
  });
});
