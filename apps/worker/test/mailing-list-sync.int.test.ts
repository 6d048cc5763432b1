import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Pipeline } from './pipeline-fixture.js';
import { startFollowUps, startRecorder, type FollowUps, type Recorder } from './follow-up-fixture.js';

const CONTACT = {
  email: 'maria.garcia@example.com',
  first_name: 'Maria',
  last_name: 'Garcia',
  loan_reason: 'MEDICAL',
  home_phone: '2125550142',
  ssn: '123456789',
  bank_account_number: '000123456789',
};

describe('mailing-list sync against a local stand-in for Brevo', () => {
  let pipeline: Pipeline;
  let brevo: Recorder;
  let followUps: FollowUps;

  beforeAll(async () => {
    pipeline = new Pipeline();
    brevo = await startRecorder(201, { id: 42 });
    followUps = await startFollowUps(pipeline, {
      brevo: { baseUrl: `${brevo.url}/v3`, apiKey: 'xkeysib-test-key', listIds: [7, 12] },
    });
  });
  afterAll(async () => {
    await followUps.close();
    await brevo.close();
    await pipeline.close();
  });
  beforeEach(() => {
    brevo.requests.length = 0;
  });

  it('upserts the contact: POST /v3/contacts with the api-key header and exactly the Brevo body', async () => {
    const id = await pipeline.store.create(CONTACT);
    expect(await followUps.syncMailingList(id)).toEqual({ done: 'synced' });
    expect(brevo.requests).toHaveLength(1);
    const [request] = brevo.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/v3/contacts' });
    expect(request!.headers).toMatchObject({
      'api-key': 'xkeysib-test-key',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(request!.body).toEqual({
      email: 'maria.garcia@example.com',
      attributes: { FIRSTNAME: 'Maria', LASTNAME: 'Garcia', LOANREASON: 'MEDICAL' },
      listIds: [7, 12],
      updateEnabled: true,
    });
  });

  it('syncs what the lead holds when the job runs, leaving out what is not given yet', async () => {
    const id = await pipeline.store.create({ email: 'early@example.com', loan_reason: 'OTHER' });
    await followUps.syncMailingList(id);
    expect(brevo.requests[0]!.body).toEqual({
      email: 'early@example.com',
      attributes: { LOANREASON: 'OTHER' },
      listIds: [7, 12],
      updateEnabled: true,
    });
  });

  it('never syncs a contact who unsubscribed, matched by email or by phone', async () => {
    const byEmail = await pipeline.store.create({ ...CONTACT, email: 'opted.out@example.com' });
    await followUps.suppression.record({
      type: 'unsubscribe',
      source: 'form',
      contact: { email: ' Opted.Out@Example.com', phone: '6465550100' },
      request: {},
    });
    const byPhone = await pipeline.store.create({ ...CONTACT, email: 'new.address@example.com' });
    await followUps.suppression.record({
      type: 'unsubscribe',
      source: 'form',
      contact: { email: 'old.address@example.com', phone: '(212)-555-0142' },
      request: {},
    });

    expect(await followUps.syncMailingList(byEmail)).toEqual({ skipped: 'contact unsubscribed' });
    expect(await followUps.syncMailingList(byPhone, 'submitted')).toEqual({
      skipped: 'contact unsubscribed',
    });
    expect(brevo.requests).toEqual([]);
  });

  it('still syncs a contact who only asked not to be sold: our own list is not a sale (unsubscribe stops it)', async () => {
    const id = await pipeline.store.create({
      ...CONTACT,
      email: 'dns.only@example.com',
      home_phone: '3125550177',
    });
    await followUps.suppression.record({
      type: 'do-not-sell',
      source: 'form',
      contact: { email: 'dns.only@example.com' },
      request: {},
    });
    expect(await followUps.syncMailingList(id)).toEqual({ done: 'synced' });
  });

  it('retries 5xx and 429 with backoff, and gives up at once on another 4xx', async () => {
    const id = await pipeline.store.create({
      ...CONTACT,
      email: 'retry@example.com',
      home_phone: '3125550101',
    });
    brevo.respondWith(503, 429);
    expect(await followUps.syncMailingList(id)).toEqual({ done: 'synced' });
    expect(brevo.requests).toHaveLength(3);

    brevo.requests.length = 0;
    brevo.respondWith(400);
    expect(await followUps.syncMailingList(id, 'submitted')).toEqual({
      skipped: 'failed: mailing list answered 400',
    });
    expect(brevo.requests).toHaveLength(1);
  });

  it('skips a lead without an email and a lead that is gone', async () => {
    const id = await pipeline.store.create({ first_name: 'Ann' });
    expect(await followUps.syncMailingList(id)).toEqual({ skipped: 'no email yet' });
    expect(await followUps.syncMailingList('gone-lead-id-000000000')).toEqual({
      skipped: 'lead no longer exists',
    });
    expect(brevo.requests).toEqual([]);
  });
});

describe('mailing-list sync without BREVO_API_KEY', () => {
  it('skips every job', async () => {
    const pipeline = new Pipeline();
    const followUps = await startFollowUps(pipeline, {});
    try {
      const id = await pipeline.store.create(CONTACT);
      expect(await followUps.syncMailingList(id)).toEqual({ skipped: 'mailing list not configured' });
    } finally {
      await followUps.close();
      await pipeline.close();
    }
  });
});
