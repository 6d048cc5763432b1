import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CONSENT_VERSION, consentText } from '@funnel/contracts/consent';
import { JOBS } from '@funnel/contracts/jobs';
import { FUNNEL_NOW, STEP_ANSWERS, cookieOf, leadIdOf } from './funnel-answers.js';
import { startTestApp, type TestApp } from './test-app.js';

const SUBMIT = { button: 'REQUEST_FUNDS', consentVersion: CONSENT_VERSION, pagePath: '/ssn' };

async function completeLead(app: FastifyInstance, steps = STEP_ANSWERS): Promise<string> {
  const created = await app.inject({
    method: 'POST',
    url: '/api/v1/lead',
    payload: { amount: 1000, loanReason: 'MEDICAL', zipCode: '10001' },
    headers: { 'user-agent': 'submission-test' },
  });
  const cookie = cookieOf(created);
  for (const [step, answer] of steps) {
    const saved = await app.inject({
      method: 'PUT',
      url: `/api/v1/lead/steps/${step}`,
      payload: answer,
      headers: { cookie },
    });
    if (saved.statusCode !== 200) throw new Error(`${step}: ${saved.body}`);
  }
  return cookie;
}

describe('submitting a lead', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ now: () => FUNNEL_NOW });
  });
  afterAll(async () => {
    await t.close();
  });

  it('refuses an incomplete lead, naming the first unanswered step', async () => {
    const cookie = await completeLead(t.app, STEP_ANSWERS.slice(0, 17));
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead/submit',
      payload: SUBMIT,
      headers: { cookie },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json().error).toMatchObject({ code: 'INCOMPLETE_LEAD', fields: { step: 'aba' } });
    expect(await t.app.submissionQueue.getJob(leadIdOf(cookie))).toBeUndefined();
  });

  it('stores the consent evidence and enqueues once for a double click or a second tab', async () => {
    const cookie = await completeLead(t.app);
    const id = leadIdOf(cookie);
    const responses = await Promise.all(
      [1, 2, 3].map(() =>
        t.app.inject({
          method: 'POST',
          url: '/api/v1/lead/submit',
          payload: SUBMIT,
          headers: { cookie, 'user-agent': 'Mozilla/5.0 test', host: 'apply.example.com' },
        }),
      ),
    );
    expect(responses.map((r) => r.statusCode)).toEqual([202, 202, 202]);
    expect(responses.map((r) => r.json())).toEqual(Array(3).fill({ outcome: 'pending' }));

    const jobs = await t.app.submissionQueue.getJobs(['waiting', 'delayed', 'active']);
    expect(jobs.filter((job) => job.data.leadId === id)).toHaveLength(1);
    expect(jobs.find((job) => job.data.leadId === id)?.name).toBe(JOBS.submitLead.name);
    expect(JSON.stringify(jobs.map((j) => j.data))).not.toMatch(/Maria|123456789|000123456789/);

    const lead = await t.app.leadStore.get(id);
    expect(lead?.consent).toEqual({
      version: CONSENT_VERSION,
      textSha256: createHash('sha256').update(consentText('REQUEST_FUNDS')).digest('hex'),
      button: 'REQUEST_FUNDS',
      at: FUNNEL_NOW.toISOString(),
      ip: '127.0.0.1',
      userAgent: 'Mozilla/5.0 test',
      pageUrl: 'http://apply.example.com/ssn',
      partnerListVersion: expect.stringMatching(/^names-[0-9a-f]{12}$/),
    });
    expect(lead?.submission?.deadlineAt).toBe(new Date(FUNNEL_NOW.getTime() + 310_000).toISOString());
    expect(lead?.outcome).toMatchObject({ outcome: 'pending', seq: 1 });

    const late = await t.app.inject({
      method: 'PUT',
      url: '/api/v1/lead/steps/lgname',
      payload: { firstName: 'X', lastName: 'Y' },
      headers: { cookie },
    });
    expect(late.statusCode).toBe(409);
    const summary = await t.app.inject({ method: 'GET', url: '/api/v1/lead', headers: { cookie } });
    expect(summary.json().outcome).toMatchObject({ outcome: 'pending' });
    // Sent: the progress bar is full, not left at the last step's share.
    expect(summary.json().progress).toBe(100);
  });

  it('refuses a consent version the page did not show', async () => {
    const cookie = await completeLead(t.app);
    const response = await t.app.inject({
      method: 'POST',
      url: '/api/v1/lead/submit',
      payload: { ...SUBMIT, consentVersion: '1999-01-01.1' },
      headers: { cookie },
    });
    expect(response.statusCode).toBe(400);
  });
});

describe('outcome events (server-sent events)', () => {
  let a: TestApp;
  let b: TestApp;
  let urlB: string;
  beforeAll(async () => {
    a = await startTestApp({ now: () => FUNNEL_NOW });
    // A second BFF instance on the same Redis and prefix, as behind a load balancer.
    b = await startTestApp({
      now: () => FUNNEL_NOW,
      env: {
        REDIS_KEY_PREFIX: a.env.REDIS_KEY_PREFIX,
        COOKIE_SECRETS: a.env.COOKIE_SECRETS.join(','),
        FIELD_ENCRYPTION_KEYS: a.env.FIELD_ENCRYPTION_KEYS.map(
          (k) => `${k.id}:${k.key.toString('base64')}`,
        ).join(','),
        SSE_HEARTBEAT_MS: '200',
      },
    });
    urlB = await b.app.listen({ port: 0, host: '127.0.0.1' });
  });
  afterAll(async () => {
    await b.app.close();
    await a.close();
  });

  async function submitted(): Promise<{ cookie: string; id: string }> {
    const cookie = await completeLead(a.app);
    await a.app.inject({ method: 'POST', url: '/api/v1/lead/submit', payload: SUBMIT, headers: { cookie } });
    return { cookie, id: leadIdOf(cookie) };
  }

  it('pushes the outcome a worker stores to a browser connected to another instance', async () => {
    const { cookie, id } = await submitted();
    const stream = await openEvents(`${urlB}/api/v1/lead/events`, cookie);
    expect(await stream.next()).toMatchObject({
      id: '1',
      event: 'outcome',
      data: { outcome: 'pending', seq: 1 },
    });
    await a.app.leadStore.setOutcome(id, { outcome: 'sold', redirectUrl: 'https://lender.example/offer/1' });
    expect(await stream.next()).toMatchObject({
      id: '2',
      data: { outcome: 'sold', redirectUrl: 'https://lender.example/offer/1' },
    });
    await stream.heartbeat();
    stream.close();
  });

  it('gives a client that connects after the outcome the outcome at once', async () => {
    const { cookie, id } = await submitted();
    await a.app.leadStore.setOutcome(id, { outcome: 'rejected', reason: 'upstream_rejected' });
    const stream = await openEvents(`${urlB}/api/v1/lead/events`, cookie);
    expect(await stream.next()).toMatchObject({ id: '2', data: { outcome: 'rejected' } });
    stream.close();
  });

  it('resumes after Last-Event-ID without repeating what the client has', async () => {
    const { cookie, id } = await submitted();
    const stream = await openEvents(`${urlB}/api/v1/lead/events`, cookie, '1');
    await a.app.leadStore.setOutcome(id, { outcome: 'no_lender', reason: 'deadline' });
    expect(await stream.next()).toMatchObject({ id: '2', data: { outcome: 'no_lender' } });
    stream.close();
  });

  it('answers 404 without a session', async () => {
    const response = await fetch(`${urlB}/api/v1/lead/events`);
    expect(response.status).toBe(404);
  });
});

interface ServerEvent {
  id?: string;
  event?: string;
  data: unknown;
}

/** A minimal EventSource over fetch, for reading the stream in a test. */
async function openEvents(url: string, cookie: string, lastEventId?: string) {
  const controller = new AbortController();
  const response = await fetch(url, {
    headers: {
      cookie,
      accept: 'text/event-stream',
      ...(lastEventId ? { 'last-event-id': lastEventId } : {}),
    },
    signal: controller.signal,
  });
  expect(response.status).toBe(200);
  expect(response.headers.get('content-type')).toMatch(/text\/event-stream/);
  expect(response.headers.get('cache-control')).toBe('no-store');
  // A stream is no document: nosniff, but none of the CSP and framing headers each held stream would keep.
  expect(response.headers.get('x-content-type-options')).toBe('nosniff');
  expect(response.headers.get('content-security-policy')).toBeNull();
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = '';
  let comments = 0;
  const events: ServerEvent[] = [];

  async function fill(): Promise<void> {
    const { value, done } = await reader.read();
    if (done) throw new Error('stream ended');
    buffer += value;
    let end: number;
    while ((end = buffer.indexOf('\n\n')) >= 0) {
      const block = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const event: Partial<ServerEvent> = {};
      for (const line of block.split('\n')) {
        if (line.startsWith(':')) comments++;
        else if (line.startsWith('id: ')) event.id = line.slice(4);
        else if (line.startsWith('event: ')) event.event = line.slice(7);
        else if (line.startsWith('data: ')) event.data = JSON.parse(line.slice(6));
      }
      if (event.data !== undefined) events.push(event as ServerEvent);
    }
  }

  return {
    async next(timeoutMs = 5000): Promise<ServerEvent> {
      const deadline = Date.now() + timeoutMs;
      while (events.length === 0) {
        if (Date.now() > deadline) throw new Error('no event arrived');
        await fill();
      }
      return events.shift()!;
    },
    /** Resolves when a keep-alive comment line arrives. */
    async heartbeat(timeoutMs = 5000): Promise<void> {
      const seen = comments;
      const deadline = Date.now() + timeoutMs;
      while (comments === seen) {
        if (Date.now() > deadline) throw new Error('no heartbeat arrived');
        await fill();
      }
    },
    close: () => controller.abort(),
  };
}
