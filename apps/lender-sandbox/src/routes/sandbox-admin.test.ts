import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { ApiErrorSchema } from '@funnel/contracts/errors';
import { LEAD_STATUS, SubmitResponseSchema } from '@funnel/contracts/lender-network';
import { SandboxLeadSchema, SandboxStatsSchema } from '@funnel/contracts/lender-sandbox';
import { DEFAULT_OUTCOME_CONFIG, OutcomeConfigSchema } from '../sandbox-config.js';
import { pingLead, postLead, submissionPayload, testSandbox } from '../test-fixtures.js';

let app: FastifyInstance;
afterEach(() => app.close());

async function stats() {
  return SandboxStatsSchema.parse((await app.inject('/_sandbox/stats')).json());
}

function putConfig(payload: unknown) {
  return app.inject({ method: 'PUT', url: '/_sandbox/config', payload: payload as object });
}

describe('GET /_sandbox/stats and POST /_sandbox/reset', () => {
  it('counts posts per lead id, distinct leads, pings, outcomes; reset clears it all', async () => {
    app = await testSandbox({ pendingShare: 0 });
    const sold = submissionPayload({ testMode: true, testSold: true });
    const rejected = submissionPayload({ testMode: true, testSold: false });
    const { data } = SubmitResponseSchema.parse((await postLead(app, sold)).json());
    await postLead(app, sold);
    await postLead(app, rejected);
    await postLead(app, { nonsense: true });
    await pingLead(app, data.lead_id);
    await pingLead(app, 'unknown-lead');

    expect(await stats()).toEqual({
      posts: 4,
      invalidPosts: 1,
      distinctLeads: 2,
      storedLeads: 2,
      postsByPartnerLeadId: { [sold.partnerLeadId]: 2, [rejected.partnerLeadId]: 1 },
      pings: 2,
      unknownLeadPings: 1,
      invalidPings: 0,
      outcomes: { pending: 0, sold: 1, rejected: 1 },
      faults: { serverError: 0, timeout: 0, reset: 0, malformedJson: 0, oversized: 0 },
      oversizedPeakInFlight: 0,
    });

    const reset = await app.inject({ method: 'POST', url: '/_sandbox/reset' });
    expect(reset.statusCode).toBe(204);
    expect(await stats()).toMatchObject({
      posts: 0,
      distinctLeads: 0,
      storedLeads: 0,
      postsByPartnerLeadId: {},
      pings: 0,
    });
    expect((await pingLead(app, data.lead_id)).statusCode).toBe(404);
  });
});

describe('GET /_sandbox/leads/:partnerLeadId', () => {
  it('returns the payload exactly as posted', async () => {
    app = await testSandbox();
    const payload = submissionPayload({ testMode: true, testSold: true });
    const { data } = SubmitResponseSchema.parse((await postLead(app, payload)).json());

    const response = await app.inject(`/_sandbox/leads/${payload.partnerLeadId}`);
    expect(response.statusCode).toBe(200);
    const lead = SandboxLeadSchema.parse(response.json());
    expect(lead).toMatchObject({
      partnerLeadId: payload.partnerLeadId,
      networkLeadId: data.lead_id,
      status: LEAD_STATUS.SOLD,
      posts: 1,
      pings: 0,
    });
    expect(lead.payload).toStrictEqual(JSON.parse(JSON.stringify(payload)));
  });

  it('answers 404 for a lead it does not hold', async () => {
    app = await testSandbox();
    const response = await app.inject('/_sandbox/leads/never-posted-lead-id');
    expect(response.statusCode).toBe(404);
    expect(ApiErrorSchema.parse(response.json()).error.code).toBe('NOT_FOUND');
  });
});

describe('GET and PUT /_sandbox/config', () => {
  it('returns the configuration in force', async () => {
    app = await testSandbox({ seed: 9 });
    const config = OutcomeConfigSchema.parse((await app.inject('/_sandbox/config')).json());
    expect(config).toEqual({ ...DEFAULT_OUTCOME_CONFIG, seed: 9, latencyMinMs: 0, latencyMaxMs: 0 });
  });

  it('changes the settings given, keeps the others, and applies them to the next leads', async () => {
    app = await testSandbox({ soldShare: 1, pendingShare: 0 });
    const before = SubmitResponseSchema.parse((await postLead(app, submissionPayload())).json());
    expect(before.data.status).toBe(LEAD_STATUS.SOLD);

    const response = await putConfig({ soldShare: 0 });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({
      soldShare: 0,
      pendingShare: 0,
      seed: DEFAULT_OUTCOME_CONFIG.seed,
    });

    const after = SubmitResponseSchema.parse((await postLead(app, submissionPayload())).json());
    expect(after.data.status).toBe(LEAD_STATUS.REJECTED);
    expect((await pingLead(app, before.data.lead_id)).json()).toMatchObject({
      data: { data: { status: LEAD_STATUS.SOLD } },
    });
  });

  it('soldRedirect: off, the next sales come without an address; a lead sold before keeps its address', async () => {
    app = await testSandbox({ soldShare: 1, pendingShare: 0 });
    const before = SubmitResponseSchema.parse((await postLead(app, submissionPayload())).json());
    expect(before.redirect_url).toMatch(/\/lender\/offer\//);

    const response = await putConfig({ soldRedirect: false });
    expect(response.statusCode).toBe(200);
    expect(response.json()).toMatchObject({ soldRedirect: false, rejectRedirect: true, soldShare: 1 });

    const after = SubmitResponseSchema.parse((await postLead(app, submissionPayload())).json());
    expect(after).toEqual({ data: { status: LEAD_STATUS.SOLD, lead_id: after.data.lead_id } });
    const earlier = (await pingLead(app, before.data.lead_id)).json() as { data: { data: object } };
    expect(earlier.data.data).toHaveProperty('redirect_url', before.redirect_url);

    expect((await putConfig({ soldRedirect: true })).json()).toMatchObject({ soldRedirect: true });
    const again = SubmitResponseSchema.parse((await postLead(app, submissionPayload())).json());
    expect(again.redirect_url).toMatch(/\/lender\/offer\//);
  });

  it('rejects an invalid configuration with field errors and keeps the old one', async () => {
    app = await testSandbox();
    const cases: [unknown, string][] = [
      [{ soldShare: 1.5 }, 'soldShare'],
      [{ pendingMinMs: 5000, pendingMaxMs: 1000 }, 'pendingMinMs'],
      [{ latencyMinMs: 10, latencyMaxMs: 5 }, 'latencyMinMs'],
      [{ fault5xxRate: 0.6, faultResetRate: 0.6 }, 'fault5xxRate'],
      [{ seed: 'abc' }, 'seed'],
      [{ soldRedirect: 'no' }, 'soldRedirect'],
      [{ soldShares: 1 }, '_'],
    ];
    for (const [patch, field] of cases) {
      const response = await putConfig(patch);
      expect(response.statusCode).toBe(400);
      expect(ApiErrorSchema.parse(response.json()).error.fields).toHaveProperty(field);
    }
    expect((await app.inject('/_sandbox/config')).json()).toMatchObject({
      soldShare: DEFAULT_OUTCOME_CONFIG.soldShare,
    });
  });
});
