import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { LENDER_NETWORK_PATHS, SubmitResponseSchema } from '@funnel/contracts/lender-network';
import { SandboxStatsSchema } from '@funnel/contracts/lender-sandbox';
import type { FaultKind } from '@funnel/contracts/lender-sandbox';
import { planDelivery } from './fault-injector.js';
import { DEFAULT_OUTCOME_CONFIG, type OutcomeConfigPatch } from './sandbox-config.js';
import { pingLead, postLead, submissionPayload, testSandbox } from './test-fixtures.js';

let app: FastifyInstance;

const NO_FAULTS = {
  fault5xxRate: 0,
  faultTimeoutRate: 0,
  faultResetRate: 0,
  faultMalformedRate: 0,
  faultOversizedRate: 0,
};

async function stats() {
  return SandboxStatsSchema.parse((await app.inject('/_sandbox/stats')).json());
}

async function setConfig(patch: OutcomeConfigPatch) {
  const response = await app.inject({ method: 'PUT', url: '/_sandbox/config', payload: patch });
  expect(response.statusCode).toBe(200);
}

describe('planDelivery', () => {
  it('picks each fault kind at rate 1 and none at rate 0, for any request', () => {
    const kinds: [FaultKind, keyof typeof NO_FAULTS][] = [
      ['serverError', 'fault5xxRate'],
      ['timeout', 'faultTimeoutRate'],
      ['reset', 'faultResetRate'],
      ['malformedJson', 'faultMalformedRate'],
    ];
    for (let n = 0; n < 200; n++) {
      const key = ['post', `lead-${n}`, '1'];
      expect(planDelivery({ ...DEFAULT_OUTCOME_CONFIG, ...NO_FAULTS }, key).fault).toBeUndefined();
      for (const [kind, rate] of kinds) {
        expect(planDelivery({ ...DEFAULT_OUTCOME_CONFIG, ...NO_FAULTS, [rate]: 1 }, key).fault).toBe(kind);
      }
    }
  });

  it('splits requests between faults by their rates, reproducibly', () => {
    const config = { ...DEFAULT_OUTCOME_CONFIG, ...NO_FAULTS, fault5xxRate: 0.2, faultMalformedRate: 0.1 };
    const plans = Array.from({ length: 5000 }, (_, n) => planDelivery(config, ['ping', 'lead', String(n)]));
    const share = (kind: FaultKind) => plans.filter((p) => p.fault === kind).length / plans.length;
    expect(share('serverError')).toBeGreaterThan(0.18);
    expect(share('serverError')).toBeLessThan(0.22);
    expect(share('malformedJson')).toBeGreaterThan(0.08);
    expect(share('malformedJson')).toBeLessThan(0.12);
    expect(planDelivery(config, ['ping', 'lead', '7'])).toEqual(plans[7]);
  });

  it('draws latency within [latencyMinMs, latencyMaxMs]', () => {
    const config = { ...DEFAULT_OUTCOME_CONFIG, latencyMinMs: 5, latencyMaxMs: 9 };
    const latencies = Array.from({ length: 500 }, (_, n) => planDelivery(config, [String(n)]).latencyMs);
    expect(Math.min(...latencies)).toBe(5);
    expect(Math.max(...latencies)).toBe(9);
  });
});

describe('faults over app.inject', () => {
  afterEach(() => app.close());

  it('injects no fault at rate 0, on posts and pings', async () => {
    app = await testSandbox(NO_FAULTS);
    for (let i = 0; i < 20; i++) {
      const post = await postLead(app, submissionPayload());
      expect(post.statusCode).toBe(200);
      const { data } = SubmitResponseSchema.parse(JSON.parse(post.body));
      expect((await pingLead(app, data.lead_id)).statusCode).toBe(200);
    }
    expect((await stats()).faults).toEqual({
      serverError: 0,
      timeout: 0,
      reset: 0,
      malformedJson: 0,
      oversized: 0,
    });
  });

  it('5xx at rate 1: every post and ping fails, yet a retry after it returns the one lead', async () => {
    app = await testSandbox({ fault5xxRate: 1 });
    const payload = submissionPayload({ testMode: true, testSold: true });
    for (let attempt = 0; attempt < 3; attempt++) {
      const response = await postLead(app, payload);
      expect([500, 502, 503]).toContain(response.statusCode);
    }
    expect((await pingLead(app, 'any-lead')).statusCode).toBeGreaterThanOrEqual(500);

    await setConfig({ fault5xxRate: 0 });
    const retried = await postLead(app, payload);
    expect(retried.statusCode).toBe(200);
    const leadId = SubmitResponseSchema.parse(retried.json()).data.lead_id;
    expect((await app.inject(`/_sandbox/leads/${payload.partnerLeadId}`)).json()).toMatchObject({
      networkLeadId: leadId,
      posts: 4,
    });
    const counters = await stats();
    expect(counters).toMatchObject({ posts: 4, distinctLeads: 1 });
    expect(counters.faults.serverError).toBe(4);
  });

  it('malformed JSON at rate 1: the body really is unparsable, on posts and pings', async () => {
    app = await testSandbox({ faultMalformedRate: 1 });
    const payload = submissionPayload();
    const post = await postLead(app, payload);
    expect(post.statusCode).toBe(200);
    expect(post.headers['content-type']).toMatch(/^application\/json/);
    expect(post.body.length).toBeGreaterThan(0);
    expect(() => JSON.parse(post.body)).toThrow(SyntaxError);

    const leadId = (await app.inject(`/_sandbox/leads/${payload.partnerLeadId}`)).json()
      .networkLeadId as string;
    const ping = await pingLead(app, leadId);
    expect(() => JSON.parse(ping.body)).toThrow(SyntaxError);
    expect((await stats()).faults.malformedJson).toBe(2);
  });

  it('oversized at rate 1: a streamed answer of oversizedBytes, no Content-Length, the real answer inside', async () => {
    app = await testSandbox({ faultOversizedRate: 1, oversizedBytes: 300_000, oversizedChunkIntervalMs: 1 });
    const payload = submissionPayload();
    const post = await postLead(app, payload);
    expect(post.statusCode).toBe(200);
    expect(post.headers['content-length']).toBeUndefined();
    expect(post.rawPayload.length).toBe(300_000);
    const answer = JSON.parse(post.body) as { data: { lead_id: string }; padding: string };
    expect(answer.data.lead_id).toMatch(/./);
    expect((await stats()).faults.oversized).toBe(1);
  });
});

describe('faults over a real port', () => {
  afterEach(() => app.close());

  async function listen(patch: OutcomeConfigPatch): Promise<string> {
    app = await testSandbox(patch);
    await app.listen({ host: '127.0.0.1', port: 0 });
    return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
  }

  function post(baseUrl: string, payload: unknown, signal?: AbortSignal) {
    return fetch(`${baseUrl}${LENDER_NETWORK_PATHS.submit}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(payload),
      signal,
    });
  }

  it('reset at rate 1: the connection is reset, the lead recorded once, a retry gets the same lead', async () => {
    const baseUrl = await listen({ faultResetRate: 1 });
    const payload = submissionPayload();
    for (let attempt = 0; attempt < 2; attempt++) {
      const failure: unknown = await post(baseUrl, payload).then(
        () => undefined,
        (error: unknown) => error,
      );
      expect(failure).toBeInstanceOf(TypeError);
      const cause = (failure as { cause?: { code?: string } }).cause;
      expect(['ECONNRESET', 'UND_ERR_SOCKET']).toContain(cause?.code);
    }

    await setConfig({ faultResetRate: 0 });
    const retried = await post(baseUrl, payload);
    expect(retried.status).toBe(200);
    expect((await stats()).faults.reset).toBe(2);
    expect(await stats()).toMatchObject({ posts: 3, distinctLeads: 1 });
  });

  it('timeout at rate 1: no answer within the client timeout; the lead is still recorded once', async () => {
    const baseUrl = await listen({ faultTimeoutRate: 1, timeoutHoldMs: 10_000 });
    const payload = submissionPayload();
    await expect(post(baseUrl, payload, AbortSignal.timeout(150))).rejects.toMatchObject({
      name: 'TimeoutError',
    });
    // The client may give up before a loaded server has even read the post: the post is recorded all the same.
    await expect
      .poll(() => stats(), { timeout: 10_000 })
      .toMatchObject({ posts: 1, distinctLeads: 1, faults: { timeout: 1 } });
  });

  it('a held request answers normally once the hold is over (a slow network, not a dead one)', async () => {
    const baseUrl = await listen({ faultTimeoutRate: 1, timeoutHoldMs: 120 });
    const response = await post(baseUrl, submissionPayload({ testMode: true, testSold: true }));
    expect((await stats()).faults.timeout).toBe(1);
    expect(SubmitResponseSchema.parse(await response.json()).data.status).toBe(1);
  });

  it('closing the sandbox drops held requests at once instead of waiting out the hold', async () => {
    const baseUrl = await listen({ faultTimeoutRate: 1, timeoutHoldMs: 30_000 });
    const pending = post(baseUrl, submissionPayload()).then(
      () => 'answered',
      () => 'dropped',
    );
    await expect.poll(async () => (await stats()).posts).toBe(1);
    // The hold is 30 s, past the test's own timeout: a close that waited it out would fail the test.
    await app.close();
    expect(await pending).toBe('dropped');
  });
});
