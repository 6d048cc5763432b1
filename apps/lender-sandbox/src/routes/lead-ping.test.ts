import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { LEAD_STATUS, PingResponseSchema, SubmitResponseSchema } from '@funnel/contracts/lender-network';
import { manualClock, pingLead, postLead, submissionPayload, testSandbox } from '../test-fixtures.js';

let app: FastifyInstance;
afterEach(() => app.close());

async function submit(payload = submissionPayload()) {
  return SubmitResponseSchema.parse((await postLead(app, payload)).json());
}

async function statusOf(leadId: string) {
  const response = await pingLead(app, leadId);
  expect(response.statusCode).toBe(200);
  return PingResponseSchema.parse(response.json()).data.data;
}

describe('GET /personal_loan/lead/ping/v2', () => {
  it('answers 404 for a lead id the network never handed out', async () => {
    app = await testSandbox();
    const response = await pingLead(app, 'no-such-lead');
    expect(response.statusCode).toBe(404);
    expect(ApiErrorSchema.parse(response.json()).error.code).toBe('NOT_FOUND');
  });

  it('answers 400 with field errors when lead_id or checkKey is missing', async () => {
    app = await testSandbox();
    const response = await app.inject({
      method: 'GET',
      url: '/personal_loan/lead/ping/v2?utm_source=google',
    });
    expect(response.statusCode).toBe(400);
    expect(Object.keys(ApiErrorSchema.parse(response.json()).error.fields ?? {}).sort()).toEqual([
      'checkKey',
      'lead_id',
    ]);
  });

  it('answers the final status of a lead decided at once, with its address', async () => {
    app = await testSandbox();
    const { data } = await submit(submissionPayload({ testMode: true, testSold: true }));
    const status = await statusOf(data.lead_id);
    expect(status).toEqual({
      status: LEAD_STATUS.SOLD,
      redirect_url: `http://127.0.0.1:4010/lender/offer/${data.lead_id}`,
    });
  });

  it('turns a pending lead final once its drawn pending duration has passed', async () => {
    const clock = manualClock();
    app = await testSandbox(
      { soldShare: 1, pendingShare: 1, pendingMinMs: 4000, pendingMaxMs: 6000 },
      { now: clock.now },
    );
    const { data } = await submit();
    expect(data.status).toBe(LEAD_STATUS.PENDING);

    clock.advance(3999);
    expect((await statusOf(data.lead_id)).status).toBe(LEAD_STATUS.PENDING);
    clock.advance(2001);
    const final = await statusOf(data.lead_id);
    expect(final.status).toBe(LEAD_STATUS.SOLD);
    expect(final.redirect_url).toMatch(/\/lender\/offer\//);
  });

  it('turns pending → final on the real clock (testPendingMs)', async () => {
    // Long enough that the first ping lands inside the pending window even on a loaded machine; then pings
    // until the real clock has moved past it, rather than sleeping a fixed time.
    const pendingMs = 1500;
    app = await testSandbox({ testPendingMs: pendingMs });
    const postedAt = Date.now();
    const { data } = await submit(submissionPayload({ testMode: true, testSold: false }));
    expect(data.status).toBe(LEAD_STATUS.PENDING);
    expect((await statusOf(data.lead_id)).status).toBe(LEAD_STATUS.PENDING);
    let status: number = LEAD_STATUS.PENDING;
    while (status === LEAD_STATUS.PENDING && Date.now() - postedAt < pendingMs + 5000) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      status = (await statusOf(data.lead_id)).status;
    }
    expect(status).toBe(LEAD_STATUS.REJECTED);
  });

  it('turns pending → sold after N pings (testPendingPings)', async () => {
    app = await testSandbox({ testPendingPings: 2 });
    const { data } = await submit(submissionPayload({ testMode: true, testSold: true }));
    expect(data.status).toBe(LEAD_STATUS.PENDING);
    const statuses = [];
    for (let i = 0; i < 4; i++) statuses.push((await statusOf(data.lead_id)).status);
    expect(statuses).toEqual([LEAD_STATUS.PENDING, LEAD_STATUS.PENDING, LEAD_STATUS.SOLD, LEAD_STATUS.SOLD]);
  });

  it('a re-post after the lead resolved answers the same lead with its final status', async () => {
    const clock = manualClock();
    app = await testSandbox({ testPendingMs: 1000 }, { now: clock.now });
    const payload = submissionPayload({ testMode: true, testSold: true });
    const first = await submit(payload);
    clock.advance(1000);
    const again = await submit(payload);
    expect(first.data.status).toBe(LEAD_STATUS.PENDING);
    expect(again.data).toEqual({ status: LEAD_STATUS.SOLD, lead_id: first.data.lead_id });
  });
});
