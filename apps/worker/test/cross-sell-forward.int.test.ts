import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { CrossSellRecord } from '@funnel/contracts/cross-sell';
import { Pipeline } from './pipeline-fixture.js';
import { startFollowUps, startRecorder, type FollowUps, type Recorder } from './follow-up-fixture.js';

const CONTACT = {
  email: 'maria.garcia@example.com',
  first_name: 'Maria',
  last_name: 'Garcia',
  loan_reason: 'MEDICAL',
  home_phone: '2125550142',
  ssn: '123456789',
};

const RECORD: CrossSellRecord = {
  answers: [
    { question: 'card-offers', answer: 'yes' },
    { question: 'credit-card-debt', answer: 'yes' },
    { question: 'auto-insurance', answer: 'yes' },
  ],
  markers: [14, 13],
  updatedAt: '2026-11-21T10:00:00.000Z',
};

describe('cross-sell forwarding against a local stand-in for the partner', () => {
  let pipeline: Pipeline;
  let partner: Recorder;
  let followUps: FollowUps;

  beforeAll(async () => {
    pipeline = new Pipeline();
    partner = await startRecorder(202);
    followUps = await startFollowUps(pipeline, {
      forward: { url: `${partner.url}/cross-sell/records`, token: 'partner-token' },
    });
  });
  afterAll(async () => {
    await followUps.close();
    await partner.close();
    await pipeline.close();
  });
  beforeEach(() => {
    partner.requests.length = 0;
  });

  async function leadWithAnswers(fields: Record<string, unknown> = {}): Promise<string> {
    const id = await pipeline.store.create({ ...CONTACT, ...fields });
    await pipeline.store.setCrossSell(id, RECORD);
    return id;
  }

  it('posts the spec §3 record with the markers, once per job id', async () => {
    const id = await leadWithAnswers();
    expect(await followUps.forwardCrossSell(id, 'auto-insurance')).toEqual({ done: 'forwarded' });
    expect(partner.requests).toHaveLength(1);
    const [request] = partner.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/cross-sell/records' });
    expect(request!.headers).toMatchObject({
      authorization: 'Bearer partner-token',
      'idempotency-key': `${id}.auto-insurance`,
      'content-type': 'application/json',
    });
    expect(request!.body).toEqual({
      email: 'maria.garcia@example.com',
      firstName: 'Maria',
      lastName: 'Garcia',
      loanReason: 'MEDICAL',
      answers: [14, 13],
      responses: RECORD.answers,
    });
  });

  it('never forwards a contact who asked not to be sold or unsubscribed, nor a lead flagged do-not-sell', async () => {
    const doNotSell = await leadWithAnswers({ email: 'dns@example.com', home_phone: '3125550111' });
    await followUps.suppression.record({
      type: 'do-not-sell',
      source: 'form',
      contact: { email: 'DNS@example.com' },
      request: {},
    });
    const unsubscribed = await leadWithAnswers({ email: 'unsub@example.com', home_phone: '3125550122' });
    await followUps.suppression.record({
      type: 'unsubscribe',
      source: 'form',
      contact: { email: 'elsewhere@example.com', phone: '3125550122' },
      request: {},
    });
    const flagged = await leadWithAnswers({ email: 'gpc@example.com', home_phone: '3125550133' });
    await pipeline.store.flagDoNotSell(flagged, 'global-privacy-control');

    expect(await followUps.forwardCrossSell(doNotSell)).toEqual({ skipped: 'contact suppressed' });
    expect(await followUps.forwardCrossSell(unsubscribed)).toEqual({ skipped: 'contact suppressed' });
    expect(await followUps.forwardCrossSell(flagged)).toEqual({ skipped: 'lead flagged do-not-sell' });
    expect(partner.requests).toEqual([]);
  });

  it('retries a partner that is down and skips a lead without answers', async () => {
    const id = await leadWithAnswers({ email: 'retry@example.com', home_phone: '3125550144' });
    partner.respondWith(500);
    expect(await followUps.forwardCrossSell(id)).toEqual({ done: 'forwarded' });
    expect(partner.requests.map((r) => r.headers['idempotency-key'])).toEqual([
      `${id}.card-offers`,
      `${id}.card-offers`,
    ]);

    const bare = await pipeline.store.create(CONTACT);
    expect(await followUps.forwardCrossSell(bare)).toEqual({ skipped: 'no cross-sell answers' });
  });
});
