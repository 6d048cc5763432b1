import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { Pipeline, startSandbox } from './pipeline-fixture.js';

const golden = JSON.parse(
  readFileSync(
    new URL('../../../packages/contracts/src/__golden__/submission-payload.json', import.meta.url),
    'utf8',
  ),
) as Record<string, unknown>;

describe('lead submission against the lender sandbox', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let pipeline: Pipeline;
  let worker: Awaited<ReturnType<Pipeline['startWorker']>>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    pipeline = new Pipeline();
    worker = await pipeline.startWorker(sandbox.url);
  });
  afterAll(async () => {
    await worker.close();
    await pipeline.close();
    await sandbox.process.stop();
  });
  beforeEach(async () => {
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

  it('sells a lead, redirecting to the lender, with the golden payload', async () => {
    const id = await pipeline.submitLead();
    const outcome = await pipeline.finalOutcome(id);
    expect(outcome.outcome).toBe('sold');
    expect(outcome.redirectUrl).toMatch(new RegExp(`^${sandbox.url}/lender/offer/`));
    const received = await sandbox.lead(id);
    expect(received.posts).toBe(1);
    expect(received.payload).toEqual({ ...golden, lead_id: id, partnerLeadId: id });
  });

  it('rejects a lead with the reject address', async () => {
    await sandbox.configure({ soldShare: 0 });
    const id = await pipeline.submitLead();
    const outcome = await pipeline.finalOutcome(id);
    expect(outcome).toMatchObject({ outcome: 'rejected', reason: 'upstream_rejected' });
    expect(outcome.redirectUrl).toMatch(/\/lender\/declined\//);
  });

  it('polls a pending lead until the lender decides', async () => {
    await sandbox.configure({ pendingShare: 1, pendingMinMs: 600, pendingMaxMs: 600 });
    const id = await pipeline.submitLead();
    const outcome = await pipeline.finalOutcome(id);
    expect(outcome.outcome).toBe('sold');
    const received = await sandbox.lead(id);
    expect(received.posts).toBe(1);
    expect(received.pings).toBeGreaterThanOrEqual(3);
  });

  it('ends as no lender when the deadline passes first', async () => {
    await sandbox.configure({ pendingShare: 1, pendingMinMs: 600_000, pendingMaxMs: 600_000 });
    const id = await pipeline.submitLead({ deadlineMs: 1200 });
    const outcome = await pipeline.finalOutcome(id);
    expect(outcome).toMatchObject({ outcome: 'no_lender', reason: 'deadline' });
    expect((await sandbox.lead(id)).posts).toBe(1);
  });

  it('makes one job and one upstream post however often a lead is enqueued', async () => {
    await sandbox.configure({ pendingShare: 1, pendingMinMs: 300, pendingMaxMs: 300 });
    const jobsBefore = total(await pipeline.queue.getJobCounts());
    const id = await pipeline.submitLead();
    await Promise.all([pipeline.enqueue(id), pipeline.enqueue(id), pipeline.enqueue(id)]);
    await pipeline.finalOutcome(id);
    expect(total(await pipeline.queue.getJobCounts())).toBe(jobsBefore + 1);
    const stats = await sandbox.stats();
    expect(stats.postsByPartnerLeadId[id]).toBe(1);
  });

  it('retries a 5xx with the same idempotency key: one upstream lead', async () => {
    await sandbox.configure({ fault5xxRate: 1 });
    const id = await pipeline.submitLead({ jobOptions: { backoff: { type: 'fixed', delay: 300 } } });
    await expect
      .poll(async () => (await sandbox.stats()).faults.serverError, { timeout: 5000 })
      .toBeGreaterThan(0);
    await sandbox.configure({ fault5xxRate: 0 });
    const outcome = await pipeline.finalOutcome(id);
    expect(outcome.outcome).toBe('sold');
    const stats = await sandbox.stats();
    expect(stats.postsByPartnerLeadId[id]).toBeGreaterThanOrEqual(2);
    expect(stats.distinctLeads).toBe(1);
  });

  it('retries malformed answers, then ends the lead as no lender', async () => {
    await sandbox.configure({ faultMalformedRate: 1 });
    const id = await pipeline.submitLead({
      jobOptions: { attempts: 3, backoff: { type: 'fixed', delay: 100 } },
    });
    const outcome = await pipeline.finalOutcome(id);
    expect(outcome).toMatchObject({ outcome: 'no_lender', reason: 'unreachable' });
    const stats = await sandbox.stats();
    expect(stats.postsByPartnerLeadId[id]).toBe(3);
    expect(stats.distinctLeads).toBe(1);
  });

  it('rejects a lead the network refuses with a 4xx, without retrying', async () => {
    await worker.close();
    // The sandbox answers 404 under an unknown path: a 4xx, which no retry would change.
    const misrouted = await pipeline.startWorker(`${sandbox.url}/not-the-network`);
    try {
      const id = await pipeline.submitLead();
      const outcome = await pipeline.finalOutcome(id);
      expect(outcome).toMatchObject({ outcome: 'rejected', reason: 'upstream_404' });
      expect((await sandbox.stats()).posts).toBe(0);
    } finally {
      await misrouted.close();
      worker = await pipeline.startWorker(sandbox.url);
    }
  });

  it('ends a lead that cannot be submitted as no lender at once', async () => {
    const id = await pipeline.submitLead({ fields: { email: 'not-an-email' } });
    const outcome = await pipeline.finalOutcome(id, 5000);
    expect(outcome).toMatchObject({ outcome: 'no_lender', reason: 'internal_error' });
    expect((await sandbox.stats()).posts).toBe(0);
  });
});

function total(counts: Record<string, number>): number {
  return Object.values(counts).reduce((a, b) => a + b, 0);
}
