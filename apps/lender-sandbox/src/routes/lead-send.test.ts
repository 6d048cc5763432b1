import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { LEAD_STATUS, SubmitResponseSchema } from '@funnel/contracts/lender-network';
import { SandboxStatsSchema } from '@funnel/contracts/lender-sandbox';
import { pingLead, postLead, submissionPayload, testSandbox } from '../test-fixtures.js';

let app: FastifyInstance;
afterEach(() => app.close());

describe('POST /personal_loan/lead/send/v2', () => {
  it('answers 400 with field errors for a bad payload, and creates no lead', async () => {
    app = await testSandbox();
    const { ssn: _ssn, ...withoutSsn } = submissionPayload();
    const response = await postLead(app, { ...withoutSsn, bankAba: '123456789', loanAmount: 750 });

    expect(response.statusCode).toBe(400);
    const { error } = ApiErrorSchema.parse(response.json());
    expect(error.code).toBe('VALIDATION_FAILED');
    expect(Object.keys(error.fields ?? {}).sort()).toEqual(['bankAba', 'loanAmount', 'ssn']);
    expect(error.fields?.bankAba).toBe('Expected a valid ABA routing number');

    const stats = SandboxStatsSchema.parse((await app.inject('/_sandbox/stats')).json());
    expect(stats).toMatchObject({ posts: 1, invalidPosts: 1, distinctLeads: 0 });
  });

  it('answers 400 for a body that is not JSON', async () => {
    app = await testSandbox();
    const response = await app.inject({
      method: 'POST',
      url: '/personal_loan/lead/send/v2',
      headers: { 'content-type': 'application/json' },
      payload: '{"productId":',
    });
    expect(response.statusCode).toBe(400);
    expect(ApiErrorSchema.parse(response.json()).error.code).toBe('VALIDATION_FAILED');
  });

  it('testMode + testSold true → sold at once, redirecting to the sandbox offer page', async () => {
    app = await testSandbox({ soldShare: 0 });
    const response = await postLead(app, submissionPayload({ testMode: true, testSold: true }));

    expect(response.statusCode).toBe(200);
    const body = SubmitResponseSchema.parse(response.json());
    expect(body.data.status).toBe(LEAD_STATUS.SOLD);
    expect(body.redirect_url).toBe(`http://127.0.0.1:4010/lender/offer/${body.data.lead_id}`);
    expect(body.rejectUrl).toBeUndefined();
  });

  it('testMode + testSold false → rejected at once, with the declined page as rejectUrl', async () => {
    app = await testSandbox({ soldShare: 1 });
    const body = SubmitResponseSchema.parse(
      (await postLead(app, submissionPayload({ testMode: true, testSold: false }))).json(),
    );

    expect(body.data.status).toBe(LEAD_STATUS.REJECTED);
    expect(body.rejectUrl).toBe(`http://127.0.0.1:4010/lender/declined/${body.data.lead_id}`);
    expect(body.redirect_url).toBeUndefined();
  });

  it('leaves rejectUrl out when rejectRedirect is off', async () => {
    app = await testSandbox({ rejectRedirect: false });
    const body = SubmitResponseSchema.parse(
      (await postLead(app, submissionPayload({ testMode: true, testSold: false }))).json(),
    );
    expect(body.data.status).toBe(LEAD_STATUS.REJECTED);
    expect(body).not.toHaveProperty('rejectUrl');
  });

  it('leaves redirect_url out of a sale when soldRedirect is off, on the post and on later pings', async () => {
    app = await testSandbox({ soldRedirect: false });
    const body = SubmitResponseSchema.parse(
      (await postLead(app, submissionPayload({ testMode: true, testSold: true }))).json(),
    );
    expect(body).toEqual({ data: { status: LEAD_STATUS.SOLD, lead_id: body.data.lead_id } });
    expect((await pingLead(app, body.data.lead_id)).json()).toEqual({
      data: { data: { status: LEAD_STATUS.SOLD } },
    });
  });

  it('answers pending (no address) for a lead drawn pending', async () => {
    app = await testSandbox({ pendingShare: 1, pendingMinMs: 60_000, pendingMaxMs: 60_000 });
    const body = SubmitResponseSchema.parse((await postLead(app, submissionPayload())).json());
    expect(body).toEqual({ data: { status: LEAD_STATUS.PENDING, lead_id: body.data.lead_id } });
  });

  it('is idempotent by partnerLeadId: a re-post answers the same lead and result, never a second lead', async () => {
    app = await testSandbox({ soldShare: 0.5, pendingShare: 0 });
    const payload = submissionPayload();
    const first = await postLead(app, payload);
    const second = await postLead(app, payload);

    expect(second.statusCode).toBe(200);
    expect(second.json()).toEqual(first.json());
    const stats = SandboxStatsSchema.parse((await app.inject('/_sandbox/stats')).json());
    expect(stats).toMatchObject({ posts: 2, distinctLeads: 1, storedLeads: 1 });
    expect(stats.postsByPartnerLeadId).toEqual({ [payload.partnerLeadId]: 2 });
  });

  it('gives each lead id its own upstream lead', async () => {
    app = await testSandbox();
    const ids = new Set<string>();
    for (let i = 0; i < 5; i++) {
      ids.add(SubmitResponseSchema.parse((await postLead(app, submissionPayload())).json()).data.lead_id);
    }
    expect(ids.size).toBe(5);
  });
});
