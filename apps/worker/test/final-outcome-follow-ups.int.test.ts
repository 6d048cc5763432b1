import { Queue } from 'bullmq';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { SAMPLE_LEAD } from '@funnel/contracts/sample-lead';
import { PURGED_AFTER_OUTCOME } from '@funnel/lead-store/lead-store';
import { Pipeline, startSandbox } from './pipeline-fixture.js';
import {
  FAST_RETRIES,
  startFollowUps,
  startRecorder,
  type FollowUps,
  type Recorder,
} from './follow-up-fixture.js';

const PURGE_GRACE_MS = 600;
const RETAINED = {
  outcome: 'success',
  match_lead: { result: { success: true } },
  retain: { reference: 'x' },
};

describe('after the final outcome: TrustedForm retain and the sensitive-data purge', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let pipeline: Pipeline;
  let trustedForm: Recorder;
  let followUps: FollowUps;
  let worker: Awaited<ReturnType<Pipeline['startWorker']>>;
  let retainQueue: Queue;

  beforeAll(async () => {
    sandbox = await startSandbox();
    pipeline = new Pipeline();
    trustedForm = await startRecorder(200, RETAINED);
    followUps = await startFollowUps(pipeline, {
      trustedForm: { apiKey: 'tf-api-key', certOrigin: trustedForm.url },
    });
    // The worker's own final-outcome follow-ups, configured as an operator would.
    worker = await pipeline.startWorker(sandbox.url, {
      env: {
        TRUSTEDFORM_API_KEY: 'tf-api-key',
        TRUSTEDFORM_CERT_ORIGIN: trustedForm.url,
        SENSITIVE_PURGE_GRACE_HOURS: String(PURGE_GRACE_MS / 3600_000),
      },
      jobOptions: FAST_RETRIES,
    });
    retainQueue = new Queue(JOBS.trustedFormRetain.queue, {
      connection: pipeline.redis,
      prefix: queuePrefix(pipeline.keyPrefix),
    });
  });
  afterAll(async () => {
    await worker.close();
    await retainQueue.close();
    await followUps.close();
    await trustedForm.close();
    await pipeline.close();
    await sandbox.process.stop();
  });
  beforeEach(async () => {
    trustedForm.requests.length = 0;
    await sandbox.reset();
    await sandbox.configure({
      soldShare: 1,
      pendingShare: 0,
      fault5xxRate: 0,
      faultMalformedRate: 0,
      faultResetRate: 0,
      faultTimeoutRate: 0,
    });
  });

  it('retains the certificate of a sold lead: API v4, basic auth API:<key>, matched on email and phone', async () => {
    const certUrl = `${trustedForm.url}/0123456789abcdef0123456789abcdef01234567`;
    const id = await pipeline.submitLead({ tracking: { trustedFormUrl: certUrl } });
    expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');
    expect(await followUps.retainResult(id)).toEqual({ done: 'retained (success)' });

    expect(trustedForm.requests).toHaveLength(1);
    const [request] = trustedForm.requests;
    expect(request).toMatchObject({ method: 'POST', url: '/0123456789abcdef0123456789abcdef01234567' });
    expect(request!.headers).toMatchObject({
      authorization: `Basic ${Buffer.from('API:tf-api-key').toString('base64')}`,
      'api-version': '4.0',
      'content-type': 'application/json',
      accept: 'application/json',
    });
    expect(request!.body).toEqual({
      retain: { reference: id },
      match_lead: { email: SAMPLE_LEAD.email, phone: SAMPLE_LEAD.home_phone },
    });
  });

  it('never sends the key to a certificate URL off the certificate host', async () => {
    const id = await pipeline.submitLead({
      tracking: { trustedFormUrl: 'https://cert.trustedform.com.evil.example/abc' },
    });
    expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');
    expect(await followUps.retainResult(id)).toEqual({ skipped: 'certificate not on the certificate host' });
    expect(trustedForm.requests).toEqual([]);
  });

  it('retains nothing for a lead that was not sold', async () => {
    await sandbox.configure({ soldShare: 0 });
    const id = await pipeline.submitLead({ tracking: { trustedFormUrl: `${trustedForm.url}/abc` } });
    expect((await pipeline.finalOutcome(id)).outcome).toBe('rejected');
    await followUps.purgeResult(id);
    expect(await retainQueue.getJob(id)).toBeUndefined();
    expect(trustedForm.requests).toEqual([]);
  });

  it('purges SSN, bank account, routing and licence numbers once the grace period has passed', async () => {
    const id = await pipeline.submitLead();
    await pipeline.finalOutcome(id);
    const before = await pipeline.store.get(id);
    for (const field of PURGED_AFTER_OUTCOME) expect(before?.fields[field]).toBeDefined();

    expect(await followUps.purgeResult(id)).toEqual({ done: `purged ${PURGED_AFTER_OUTCOME.length} fields` });
    const after = await pipeline.store.get(id);
    for (const field of PURGED_AFTER_OUTCOME) expect(after?.fields).not.toHaveProperty(field);
    expect(after?.fields).toMatchObject({
      first_name: 'Maria',
      email: SAMPLE_LEAD.email,
      dob: SAMPLE_LEAD.dob,
    });
    expect(after?.outcome?.outcome).toBe('sold');
    const raw = JSON.stringify(await pipeline.redis.hgetall(pipeline.store.key(id)));
    expect(raw).toContain('_sensitive_purged_at');
  });
});
