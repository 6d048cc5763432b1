/**
 * Bulkheads between buyers (issue 28, ADR 0017), against a real Redis and BullMQ queue and the lender sandbox's
 * simulated buyers: a buyer whose places are all taken makes its other leads wait off the worker's job slots,
 * and another buyer's leads go through meanwhile; a lead that cannot wait moves on to the next buyer.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Pipeline } from './pipeline-fixture.js';
import { buyersFile, startBuyersSandbox, startWaterfallWorker } from './waterfall-fixture.js';
import { until } from '@funnel/testing/until';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('bulkheads between buyers (real queue, real sandbox)', () => {
  let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;

  beforeAll(async () => {
    sandbox = await startBuyersSandbox([
      // Takes every lead, each answer 2.5 s late: its places stay taken.
      {
        id: 'held',
        protocol: 'sync-post',
        seed: 1,
        interestShare: 1,
        latencyMinMs: 2500,
        latencyMaxMs: 2500,
      },
      { id: 'quick', protocol: 'sync-post', seed: 2, interestShare: 1, latencyMinMs: 0, latencyMaxMs: 0 },
    ]);
  });
  afterAll(() => sandbox.process.stop());

  const syncPost = (id: string, tier: number, extra: Record<string, unknown>) => ({
    id,
    tier,
    protocol: 'sync-post' as const,
    baseUrl: sandbox.buyerUrl(id),
    priceLadder: [0],
    ...extra,
  });

  it('a full buyer’s waiting leads hold no job slot, and another buyer’s leads go through meanwhile', async () => {
    // Six job slots: two for each buyer's share and two more. Leads of 2,000 go to `held`, of 500 to `quick`.
    const buyers = buyersFile([
      syncPost('held', 1, { concurrency: 2, filters: { minAmount: 2000 } }),
      syncPost('quick', 1, { concurrency: 2, filters: { maxAmount: 1000 } }),
    ]);
    const pipeline = new Pipeline();
    const worker = startWaterfallWorker(pipeline, buyers, { concurrency: 6 });
    try {
      const before = await sandbox.stats();
      const held: string[] = [];
      for (let i = 0; i < 8; i += 1) held.push(await pipeline.submitLead({ fields: { loan_amount: 2000 } }));

      // Two calls in flight at `held`, the six other leads parked in the delayed set, not in the worker's slots.
      await until(
        'held full, the rest parked',
        async () => {
          return worker.bulkheads.inFlight('held') === 2 && (await pipeline.queue.getDelayedCount()) >= 5;
        },
        { intervalMs: 20 },
      );
      // Which jobs hold a worker slot: those active in nearly every sample over 600 ms. A parked lead's run is
      // active for a few milliseconds at a time; a slot held by a call stays active throughout.
      const seen = new Map<string, number>();
      const samples = 12;
      for (let i = 0; i < samples; i += 1) {
        for (const job of await pipeline.queue.getActive()) seen.set(job.id!, (seen.get(job.id!) ?? 0) + 1);
        await sleep(50);
      }
      const holding = [...seen.entries()].filter(([, n]) => n >= samples * 0.75).map(([id]) => id);
      // At most the two posting at `held` (without bulkheads, all six slots would be held by waiting calls).
      expect(holding.length).toBeLessThanOrEqual(2);
      expect(holding.every((id) => held.includes(id))).toBe(true);

      // The other buyer's leads are decided while most of `held`'s are still waiting their turn.
      const quick: string[] = [];
      for (let i = 0; i < 4; i += 1) quick.push(await pipeline.submitLead({ fields: { loan_amount: 500 } }));
      for (const id of quick) expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');
      const heldStillPending = (
        await Promise.all(held.map(async (id) => (await pipeline.store.getOutcome(id))?.outcome))
      ).filter((outcome) => outcome === 'pending').length;
      expect(heldStillPending).toBeGreaterThanOrEqual(4);

      // Every waiting lead gets its turn at `held`: one attempt each, none repeated, all sold.
      for (const id of held) expect((await pipeline.finalOutcome(id, 30_000)).outcome).toBe('sold');
      for (const id of held) {
        expect(worker.attemptsOf(id).map((a) => `${a.buyer}:${a.result}`)).toEqual(['held:sold']);
      }
      const after = await sandbox.stats();
      expect(after.held!.attempts - before.held!.attempts).toBe(8);
      expect(after.held!.replays).toBe(before.held!.replays);
      expect(after.held!.repeatedAttempts).toBe(0);
      expect(worker.bulkheads.inFlight('held')).toBe(0);
    } finally {
      await worker.close();
      await pipeline.close();
    }
  }, 60_000);

  it('a lead that could not wait without spending time its walk needs moves on, and no call is made', async () => {
    // `held` has one place; a lead whose deadline leaves less than its walk needs (5 s at `held`, then 30 s at
    // `quick`) cannot wait for it.
    const buyers = buyersFile([
      syncPost('held', 1, { concurrency: 1, timeouts: { attemptMs: 5000 } }),
      syncPost('quick', 2, { concurrency: 2 }),
    ]);
    const pipeline = new Pipeline();
    const worker = startWaterfallWorker(pipeline, buyers, { concurrency: 4 });
    try {
      const before = await sandbox.stats();
      const first = await pipeline.submitLead();
      await until('first lead posting at held', () => worker.bulkheads.inFlight('held') === 1, {
        intervalMs: 20,
      });
      const second = await pipeline.submitLead({ deadlineMs: 5000 });
      const outcome = await pipeline.finalOutcome(second);
      expect(outcome.outcome).toBe('sold');
      expect(outcome.redirectUrl).toContain('/buyers/quick/');
      const attempts = worker.attemptsOf(second);
      expect(attempts.map((a) => `${a.buyer}:${a.result}:${a.errorKind ?? ''}`)).toEqual([
        'held:capped:saturated',
        'quick:sold:',
      ]);
      expect((await pipeline.finalOutcome(first)).outcome).toBe('sold');
      const after = await sandbox.stats();
      // Only the first lead was ever posted to `held`.
      expect(after.held!.attempts - before.held!.attempts).toBe(1);
    } finally {
      await worker.close();
      await pipeline.close();
    }
  }, 30_000);
});
