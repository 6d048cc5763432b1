import { Queue } from 'bullmq';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { FUNNEL_NOW } from './funnel-answers.js';
import { answeredLead, submittedLead } from './complete-lead.js';
import { startTestApp, type TestApp } from './test-app.js';

describe('POST /api/v1/lead/cross-sell', () => {
  let t: TestApp;
  let queue: Queue;
  beforeAll(async () => {
    t = await startTestApp({ now: () => FUNNEL_NOW });
    queue = new Queue(JOBS.crossSellForward.queue, {
      connection: t.redis,
      prefix: queuePrefix(t.env.REDIS_KEY_PREFIX),
    });
  });
  afterAll(async () => {
    await queue.close();
    await t.close();
  });

  const answer = (cookie: string | undefined, answers: unknown) =>
    t.app.inject({
      method: 'POST',
      url: '/api/v1/lead/cross-sell',
      payload: { answers },
      headers: cookie ? { cookie } : {},
    });

  it('stores the answers with their markers and queues a forward for each yes that sends a record', async () => {
    const { cookie, id } = await submittedLead(t.app);

    const q1 = await answer(cookie, [{ question: 'card-offers', answer: 'yes' }]);
    expect(q1.statusCode).toBe(200);
    expect(q1.json()).toEqual({
      answers: [{ question: 'card-offers', answer: 'yes' }],
      markers: [],
      updatedAt: FUNNEL_NOW.toISOString(),
    });
    await answer(cookie, [{ question: 'credit-card-debt', answer: 'yes' }]);
    await answer(cookie, [{ question: 'auto-insurance', answer: 'no' }]);
    const q4 = await answer(cookie, [{ question: 'credit-score', answer: 'yes' }]);
    expect(q4.json().markers).toEqual([14, 12]);

    expect((await t.app.leadStore.get(id))?.crossSell).toEqual({
      answers: [
        { question: 'card-offers', answer: 'yes' },
        { question: 'credit-card-debt', answer: 'yes' },
        { question: 'auto-insurance', answer: 'no' },
        { question: 'credit-score', answer: 'yes' },
      ],
      markers: [14, 12],
      updatedAt: FUNNEL_NOW.toISOString(),
    });

    const jobs = (await queue.getJobs(['waiting', 'delayed', 'active'])).filter((j) => j.data.leadId === id);
    expect(jobs.map((j) => j.id).sort()).toEqual([`${id}.card-offers`, `${id}.credit-score`]);
    for (const job of jobs) {
      expect(job.name).toBe(JOBS.crossSellForward.name);
      expect(job.data).toEqual({ leadId: id });
    }
  });

  it('queues one forward for a double click', async () => {
    const { cookie, id } = await submittedLead(t.app);
    await Promise.all([1, 2].map(() => answer(cookie, [{ question: 'auto-insurance', answer: 'yes' }])));
    const jobs = (await queue.getJobs(['waiting', 'delayed', 'active'])).filter((j) => j.data.leadId === id);
    expect(jobs.map((j) => j.id)).toEqual([`${id}.auto-insurance`]);
  });

  it('refuses answers before submission (409), without a session (404) and malformed (400)', async () => {
    const { cookie } = await answeredLead(t.app, { steps: [] });
    expect((await answer(cookie, [{ question: 'card-offers', answer: 'yes' }])).statusCode).toBe(409);
    expect((await answer(undefined, [{ question: 'card-offers', answer: 'yes' }])).statusCode).toBe(404);
    const bad = await answer(cookie, [{ question: 'card-offers', answer: 'maybe' }]);
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.code).toBe('VALIDATION_FAILED');
  });
});
