import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pipeline, startSandbox } from './pipeline-fixture.js';

/**
 * Issue 28, point 2, for the single lender network (no buyers file): a lead's post waits for a connection within
 * its deadline, and a lead whose deadline cuts its post short is decided then, without the reconciler and
 * without waiting for a retry's backoff.
 */
describe('the lender network post within the lead deadline (real sandbox, real worker)', () => {
  const pipeline = new Pipeline();
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;

  beforeAll(async () => {
    sandbox = await startSandbox();
    // Every post holds the worker's only connection for 6 s, then sells.
    await sandbox.configure({ soldShare: 1, pendingShare: 0, latencyMinMs: 6000, latencyMaxMs: 6000 });
  });
  afterAll(async () => {
    await pipeline.close();
    await sandbox.process.stop();
  });

  it('a lead queued behind a slow post ends as no lender by its deadline, never posted', async () => {
    const worker = await pipeline.startWorker(sandbox.url, {
      env: { LENDER_CONNECTIONS: '1', LENDER_CONNECT_TIMEOUT_MS: '1000', LENDER_HEADERS_TIMEOUT_MS: '10000' },
    });
    try {
      const slow = await pipeline.submitLead();
      // Let the first post take the connection before the second lead arrives.
      await new Promise((r) => setTimeout(r, 300));
      const queued = await pipeline.submitLead({ deadlineMs: 1500 });

      const outcome = await pipeline.finalOutcome(queued, 20_000);
      expect(outcome).toMatchObject({ outcome: 'no_lender', reason: 'deadline' });
      // Decided at its 1.5 s deadline while the slow post (6 s) still held the connection, not once it freed it.
      expect((await pipeline.store.getOutcome(slow))?.outcome ?? 'pending').toBe('pending');
      expect((await pipeline.finalOutcome(slow, 20_000)).outcome).toBe('sold');
      // The queued lead never reached the lender.
      const stats = await sandbox.stats();
      expect(stats.outcomes.sold).toBe(1);
    } finally {
      await worker.close();
    }
  });
});
