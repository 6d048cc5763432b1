import { randomBytes } from 'node:crypto';
import { Queue } from 'bullmq';
import { Redis } from 'ioredis';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type {} from '@funnel/testing/services-global-setup';
import { JOBS, queuePrefix } from '@funnel/contracts/jobs';
import { JobQueues, enqueue } from '@funnel/server-runtime/job-queue';
import { FieldCipher } from '@funnel/lead-store/field-cipher';
import { LeadStore } from '@funnel/lead-store/lead-store';
import { submissionEvidence } from '@funnel/lead-store/submission-evidence';
import { SAMPLE_CONSENT } from './pipeline-fixture.js';
import { deleteKeys, testKeyPrefix } from '@funnel/testing/redis-keys';
import { createReconciler, type RepairKind } from '../src/reconciler/reconciler.js';
import { startReconcilerWorker } from '../src/scheduled-pass.js';

describe('reconciler on real Redis', () => {
  const keyPrefix = testKeyPrefix('reconciler');
  let redis: Redis;
  let store: LeadStore;
  let queue: Queue;
  let now = Date.now();
  const repairs: RepairKind[] = [];
  const followedUp: string[] = [];
  let reconcile: () => Promise<void>;

  beforeAll(() => {
    redis = new Redis(inject('redisUrl'), { maxRetriesPerRequest: null });
    store = new LeadStore(redis, new FieldCipher([{ id: 'k1', key: randomBytes(32) }]), {
      keyPrefix,
      ttlMs: 600_000,
    });
    queue = new Queue(JOBS.submitLead.queue, { connection: redis, prefix: queuePrefix(keyPrefix) });
    reconcile = createReconciler({
      store,
      redis,
      keyPrefix,
      submissionQueue: queue,
      outboxAgeMs: 5000,
      deadlineGraceMs: 30_000,
      now: () => now,
      logger: pino({ level: 'silent' }),
      onFinalOutcome: async (leadId) => {
        followedUp.push(leadId);
      },
      onRepair: (kind) => repairs.push(kind),
    });
  });
  afterAll(async () => {
    await queue.close();
    await deleteKeys(redis, keyPrefix);
    await redis.quit();
  });

  async function submitted(deadlineInMs = 300_000): Promise<string> {
    const id = await store.create({ first_name: 'Ann' });
    const at = Date.now();
    await store.startSubmission(
      id,
      { submittedAt: new Date(at).toISOString(), deadlineAt: new Date(at + deadlineInMs).toISOString() },
      submissionEvidence(
        { leadId: id, consent: SAMPLE_CONSENT, fields: {}, source: 'funnel', submittedAt: new Date(at) },
        { retentionMs: 600_000, withEvents: false },
      ),
    );
    return id;
  }

  it('enqueues a submitted lead whose request died before its job was added, once', async () => {
    const id = await submitted();
    now = Date.now();
    await reconcile();
    expect(await queue.getJob(id)).toBeUndefined(); // too young: still its request's to finish

    now = Date.now() + 6000;
    repairs.length = 0;
    await reconcile();
    await reconcile();
    expect((await queue.getJob(id))?.data).toEqual({ leadId: id });
    expect(repairs).toEqual(['enqueued']);
    expect(await store.outboxBefore(Number.POSITIVE_INFINITY)).not.toContain(id);
    await queue.remove(id);
    await store.delete(id);
  });

  it('ends a lead still pending past its deadline and grace as no lender, with its follow-ups', async () => {
    const id = await submitted(1000);
    await enqueue(queue, JOBS.submitLead, { leadId: id }, { delay: 600_000 });
    await store.outboxDone(id);
    now = Date.now() + 20_000;
    repairs.length = 0;
    await reconcile();
    expect((await store.getOutcome(id))?.outcome).toBe('pending');

    now = Date.now() + 40_000;
    await reconcile();
    await reconcile();
    expect(await store.getOutcome(id)).toMatchObject({ outcome: 'no_lender', reason: 'deadline' });
    expect(repairs).toEqual(['deadline']);
    expect(followedUp).toEqual([id]);
    expect(await store.pendingBefore(Number.POSITIVE_INFINITY)).not.toContain(id);
    await queue.remove(id);
    await store.delete(id);
  });

  it('schedules the poll of a posted lead whose job ended without a final outcome', async () => {
    const id = await submitted();
    await store.updateSubmission(id, { upstreamLeadId: 'up-1', checkKey: id });
    await store.outboxDone(id); // its job was added, then lost (e.g. removed while Redis failed over)
    now = Date.now() + 6000;
    repairs.length = 0;
    await reconcile();
    await reconcile();
    expect(repairs).toEqual(['poll_scheduled']);
    expect(await (await queue.getJob(id))?.getState()).toBe('waiting');
    await queue.remove(id);
    await store.delete(id);
  });

  it('binds an idempotency key left in progress to the lead its claim created', async () => {
    const id = await submitted();
    await store.outboxDone(id);
    await enqueue(queue, JOBS.submitLead, { leadId: id }, { delay: 600_000 });
    const key = `${keyPrefix}partner-idempotency:acme:${randomBytes(8).toString('hex')}`;
    const orphanKey = `${keyPrefix}partner-idempotency:acme:${randomBytes(8).toString('hex')}`;
    await redis.set(key, `~in-progress:${Date.now()}:${id}`, 'PX', 60_000);
    await redis.set(orphanKey, `~in-progress:${Date.now()}:${'z'.repeat(22)}`, 'PX', 60_000);
    repairs.length = 0;
    await reconcile();
    expect(await redis.get(key)).toBe(id);
    expect(await redis.pttl(key)).toBeGreaterThan(23 * 3600_000);
    expect(await redis.get(orphanKey)).toMatch(/^~in-progress/);
    expect(repairs).toEqual(['idempotency_completed']);
    await queue.remove(id);
    await store.delete(id);
  });

  it('runs as a job scheduler: two workers share it and never reconcile at once', async () => {
    let running = 0;
    let overlap = false;
    let runs = 0;
    const pass = async () => {
      running += 1;
      if (running > 1) overlap = true;
      await new Promise((resolve) => setTimeout(resolve, 150));
      running -= 1;
      runs += 1;
    };
    // Two worker processes, each with its own queues.
    const options = () => ({
      connection: redis,
      queues: new JobQueues(redis, keyPrefix),
      keyPrefix,
      everyMs: 100,
      logger: pino({ level: 'silent' }),
    });
    const a = await startReconcilerWorker(pass, options());
    const b = await startReconcilerWorker(pass, options());
    await new Promise((resolve) => setTimeout(resolve, 1500));
    await Promise.all([a.worker.close(), b.worker.close()]);
    await Promise.all([a.queue.close(), b.queue.close()]);
    expect(runs).toBeGreaterThanOrEqual(3);
    expect(overlap).toBe(false);
  });
});
