import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRedisServer, type RedisServer } from '@funnel/testing/processes';
import { Pipeline, startSandbox } from './pipeline-fixture.js';

// docs/adr/0018: with REDIS_WAIT_REPLICAS=1 the worker acts on nothing its replica did not confirm. A primary and a
// replica of this test (real redis-server processes): the replica stopped, a lead submitted, nothing posted; the
// replica back, the lead posted once and decided, without spending one of the job's attempts.

describe('the worker with REDIS_WAIT_REPLICAS=1', () => {
  let primary: RedisServer;
  let replica: RedisServer;
  let onReplica: Redis;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  let pipeline: Pipeline;
  let worker: Awaited<ReturnType<Pipeline['startWorker']>>;

  const synced = async () => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const info = await onReplica.info('replication').catch(() => '');
      if (info.includes('master_link_status:up')) return;
      if (Date.now() > deadline) throw new Error('the replica did not sync');
      await new Promise((r) => setTimeout(r, 100));
    }
  };

  beforeAll(async () => {
    primary = await startRedisServer();
    replica = await startRedisServer({ args: ['--replicaof', '127.0.0.1', String(primary.port)] });
    onReplica = new Redis(replica.url, { maxRetriesPerRequest: 1, retryStrategy: () => 200 });
    onReplica.on('error', () => undefined);
    await synced();
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
    onReplica?.disconnect();
    await replica?.kill();
    await primary?.kill();
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
    await synced();
    expect((await pipeline.finalOutcome(second, 15_000)).outcome).toBe('sold');
    expect((await sandbox.lead(second)).posts).toBe(1);
    expect((await sandbox.stats()).distinctLeads).toBe(2);
    // BullMQ counts the run that completed; the refused runs before it spent nothing.
    expect((await pipeline.queue.getJob(second))?.attemptsMade).toBe(1);
  }, 40_000);
});
