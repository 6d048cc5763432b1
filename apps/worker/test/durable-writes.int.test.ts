import type { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startReplicaPair, type RedisServer, type ReplicaPair } from '@funnel/testing/processes';
import { until } from '@funnel/testing/until';
import { Pipeline, startSandbox } from './pipeline-fixture.js';

// docs/adr/0018: with REDIS_WAIT_REPLICAS=1 the worker acts on nothing its replica did not confirm. A primary and a
// replica of this test (real redis-server processes): the replica stopped, a lead submitted, nothing posted; the
// replica back, the lead posted once and decided, without spending one of the job's attempts.

describe('the worker with REDIS_WAIT_REPLICAS=1', () => {
  let pair: ReplicaPair;
  let primary: RedisServer;
  let replica: RedisServer;
  let onReplica: Redis;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let pipeline: Pipeline;
  let worker: Awaited<ReturnType<Pipeline['startWorker']>>;

  beforeAll(async () => {
    pair = await startReplicaPair();
    ({ primary, replica, onReplica } = pair);
    sandbox = await startSandbox();
    await sandbox.configure({ soldShare: 1, pendingShare: 0 });
    pipeline = new Pipeline(primary.url);
    worker = await pipeline.startWorker(sandbox.url, {
      env: { REDIS_WAIT_REPLICAS: '1', REDIS_WAIT_TIMEOUT_MS: '200' },
    });
  });
  afterAll(async () => {
    await replica?.start().catch(() => undefined);
    await worker?.close();
    await pipeline?.close();
    await sandbox?.process.stop();
    await pair?.stop();
  });

  it('posts nothing while its writes cannot be confirmed, then posts once when the replica is back', async () => {
    const first = await pipeline.submitLead();
    expect((await pipeline.finalOutcome(first)).outcome).toBe('sold');
    expect((await sandbox.lead(first)).posts).toBe(1);
    // The sale the borrower is shown is on the replica too.
    expect(await onReplica.hget(`${pipeline.keyPrefix}lead:${first}`, '_outcome')).toContain('"sold"');

    await replica.kill();
    const second = await pipeline.submitLead();
    await new Promise((r) => setTimeout(r, 2500));
    // The post claim was written and not confirmed: the lender never saw the lead, and nothing was decided.
    expect((await sandbox.stats()).distinctLeads).toBe(1);
    expect((await pipeline.store.getOutcome(second))?.outcome).toBe('pending');
    const job = await pipeline.queue.getJob(second);
    expect(job?.attemptsMade).toBe(0);
    expect(await job?.getState()).toMatch(/delayed|waiting|active/);

    await replica.start();
    await pair.synced();
    expect((await pipeline.finalOutcome(second, 15_000)).outcome).toBe('sold');
    expect((await sandbox.lead(second)).posts).toBe(1);
    expect((await sandbox.stats()).distinctLeads).toBe(2);
    // The refused runs spent none of the job's attempts (each was started, and put back without counting): at
    // most the run that completed counts, which BullMQ records once it has moved the job, a moment after the
    // outcome is written.
    const done = await until('the job to complete', async () => {
      const job = await pipeline.queue.getJob(second);
      return (await job?.getState()) === 'completed' ? job : undefined;
    });
    expect(done.attemptsStarted).toBeGreaterThan(1);
    expect(done.attemptsMade).toBeLessThanOrEqual(1);
  }, 40_000);
});
