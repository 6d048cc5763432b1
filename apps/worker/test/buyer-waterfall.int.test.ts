import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createBuyerAdapter } from '../src/buyers/create-buyer-adapter.js';
import { planWalk, type LeadTraits } from '../src/buyers/buyer-eligibility.js';
import { WaterfallCursors } from '../src/waterfall/waterfall-cursor.js';
import { Pipeline } from './pipeline-fixture.js';
import { buyersFile, startBuyersSandbox, startWaterfallWorker } from './waterfall-fixture.js';

const fast = { latencyMinMs: 0, latencyMaxMs: 0 };

describe('the buyers waterfall against simulated buyers', () => {
  let sandbox: Awaited<ReturnType<typeof startBuyersSandbox>>;

  beforeAll(async () => {
    sandbox = await startBuyersSandbox([
      // Wants every lead, never above 60: rejected at floors 80 and 70, sold at 0.
      { id: 'ladder', protocol: 'sync-post', seed: 1, interestShare: 1, maxValue: 60, ...fast },
      { id: 'never', protocol: 'sync-post', seed: 2, interestShare: 0, ...fast },
      { id: 'always', protocol: 'sync-post', seed: 3, interestShare: 1, maxValue: 1000, ...fast },
      { id: 'california', protocol: 'sync-post', seed: 4, interestShare: 1, states: ['CA'], ...fast },
      {
        id: 'pending-network',
        protocol: 'lead-service',
        seed: 5,
        soldShare: 1,
        pendingShare: 1,
        pendingMinMs: 300,
        pendingMaxMs: 300,
        ...fast,
      },
      {
        id: 'silent-network',
        protocol: 'lead-service',
        seed: 7,
        soldShare: 1,
        pendingShare: 1,
        pendingMinMs: 600_000,
        pendingMaxMs: 600_000,
        ...fast,
      },
      {
        id: 'slow',
        protocol: 'sync-post',
        seed: 6,
        interestShare: 1,
        latencyMinMs: 5000,
        latencyMaxMs: 5000,
      },
    ]);
  });
  afterAll(() => sandbox.process.stop());

  const buyer = (id: string, tier: number, extra: Record<string, unknown> = {}) => ({
    id,
    tier,
    baseUrl: sandbox.buyerUrl(id),
    ...(id === 'pending-network' || id === 'silent-network'
      ? { protocol: 'lead-service' as const, price: 25, timeouts: { attemptMs: 10_000, pollMs: 100 } }
      : { protocol: 'sync-post' as const, priceLadder: [0] }),
    ...extra,
  });

  async function withWorker<T>(
    buyers: ReturnType<typeof buyersFile>,
    run: (pipeline: Pipeline, worker: ReturnType<typeof startWaterfallWorker>) => Promise<T>,
  ): Promise<T> {
    const pipeline = new Pipeline();
    const worker = startWaterfallWorker(pipeline, buyers);
    try {
      return await run(pipeline, worker);
    } finally {
      await worker.close();
      await pipeline.close();
    }
  }

  it('walks a buyer’s price ladder down and sells at the first floor it takes', async () => {
    const buyers = buyersFile([buyer('ladder', 1, { priceLadder: [80, 70, 0] })]);
    await withWorker(buyers, async (pipeline, worker) => {
      const id = await pipeline.submitLead();
      const outcome = await pipeline.finalOutcome(id);
      expect(outcome.outcome).toBe('sold');
      expect(outcome.redirectUrl).toContain('/buyers/ladder/lender/offer/');
      const attempts = worker.attemptsOf(id);
      expect(attempts.map((a) => [a.floor, a.result])).toEqual([
        [80, 'rejected'],
        [70, 'rejected'],
        [0, 'sold'],
      ]);
      expect(new Set(attempts.map((a) => a.attemptKey)).size).toBe(3);
      expect(attempts[2]!.price).toBeGreaterThanOrEqual(0);
    });
  });

  it('skips buyers whose filters leave the lead out, walks tiers in order, pings a pending buyer', async () => {
    const buyers = buyersFile([
      buyer('pending-network', 3),
      buyer('california', 1, { filters: { states: ['CA'] } }),
      buyer('never', 2, { priceLadder: [50, 10] }),
    ]);
    await withWorker(buyers, async (pipeline, worker) => {
      const before = await sandbox.stats();
      const id = await pipeline.submitLead();
      const outcome = await pipeline.finalOutcome(id);
      expect(outcome.outcome).toBe('sold');
      expect(outcome.redirectUrl).toContain('/buyers/pending-network/');
      expect(worker.attemptsOf(id).map((a) => `${a.buyer}@${a.floor ?? '-'}:${a.result}`)).toEqual([
        'never@50:rejected',
        'never@10:rejected',
        'pending-network@-:sold',
      ]);
      expect(worker.attemptsOf(id)[2]!.price).toBe(25);
      const after = await sandbox.stats();
      expect(after.california!.attempts).toBe(before.california!.attempts);
      // Pinged while pending, never posted again.
      expect(after['pending-network']!.attempts - before['pending-network']!.attempts).toBe(1);
      expect(after['pending-network']!.replays).toBe(before['pending-network']!.replays);
    });
  });

  it('ends as no lender when no buyer decided: the only one stayed pending past its attempt', async () => {
    const buyers = buyersFile([buyer('silent-network', 1, { timeouts: { attemptMs: 1500, pollMs: 100 } })]);
    await withWorker(buyers, async (pipeline, worker) => {
      const id = await pipeline.submitLead({ deadlineMs: 60_000 });
      expect(await pipeline.finalOutcome(id)).toMatchObject({
        outcome: 'no_lender',
        reason: 'no_buyer_decided',
      });
      expect(worker.attemptsOf(id).map((a) => `${a.buyer}:${a.result}`)).toEqual(['silent-network:timeout']);
    });
  });

  it('ends as rejected when a buyer that answered declined, even if another never decided', async () => {
    const buyers = buyersFile([
      buyer('silent-network', 1, { timeouts: { attemptMs: 1500, pollMs: 100 } }),
      buyer('never', 2),
    ]);
    await withWorker(buyers, async (pipeline) => {
      const id = await pipeline.submitLead({ deadlineMs: 60_000 });
      expect(await pipeline.finalOutcome(id)).toMatchObject({
        outcome: 'rejected',
        reason: 'all_buyers_declined',
      });
    });
  });

  it('ends as rejected when every buyer declines, and as no lender when no buyer is eligible', async () => {
    await withWorker(
      buyersFile([buyer('never', 1), buyer('california', 2, { filters: { states: ['CA'] } })]),
      async (pipeline) => {
        const declined = await pipeline.submitLead();
        expect(await pipeline.finalOutcome(declined)).toMatchObject({
          outcome: 'rejected',
          reason: 'all_buyers_declined',
        });
        const nobody = await pipeline.submitLead({ fields: { state: 'NV' }, deadlineMs: 60_000 });
        expect(await pipeline.finalOutcome(nobody)).toMatchObject({
          outcome: 'rejected',
          reason: 'all_buyers_declined',
        });
      },
    );
    await withWorker(
      buyersFile([buyer('california', 1, { filters: { states: ['CA'] } })]),
      async (pipeline) => {
        const id = await pipeline.submitLead();
        expect(await pipeline.finalOutcome(id)).toMatchObject({
          outcome: 'no_lender',
          reason: 'no_eligible_buyer',
        });
      },
    );
  });

  it('gives each attempt a budget that ends before the deadline, and ends the walk as no lender there', async () => {
    const buyers = buyersFile([buyer('slow', 1, { timeouts: { attemptMs: 60_000 } }), buyer('always', 2)]);
    await withWorker(buyers, async (pipeline, worker) => {
      const id = await pipeline.submitLead({ deadlineMs: 2500 });
      const outcome = await pipeline.finalOutcome(id);
      expect(outcome).toMatchObject({ outcome: 'no_lender', reason: 'deadline' });
      // The slow buyer (5 s to answer) was told to answer within the lead's time, so it gave up and rejected;
      // no time was left for the next buyer. (A machine slow enough to pick the job up with less than a second
      // left makes no attempt at all.)
      const attempts = worker.attemptsOf(id);
      expect(attempts.map((a) => `${a.buyer}:${a.result}`)).toEqual(
        attempts.length === 0 ? [] : ['slow:rejected'],
      );
    });
  });

  it('never lets concurrent walks go past a cap, and gives a place back when the attempt fails', async () => {
    const buyers = buyersFile([
      buyer('never', 1, { caps: { perHour: 1 } }),
      buyer('always', 2, { caps: { perHour: 4, perDay: 100 } }),
      buyer('pending-network', 3),
    ]);
    const pipeline = new Pipeline();
    // Two workers on the same queue, as two processes would be.
    const first = startWaterfallWorker(pipeline, buyers, { concurrency: 10 });
    const second = startWaterfallWorker(pipeline, buyers, { concurrency: 10 });
    try {
      const ids = await Promise.all(Array.from({ length: 16 }, () => pipeline.submitLead()));
      const outcomes = await Promise.all(ids.map((id) => pipeline.finalOutcome(id)));
      expect(outcomes.every((o) => o.outcome === 'sold')).toBe(true);
      const attempts = [...first.attempts, ...second.attempts];
      expect(attempts.filter((a) => a.buyer === 'always' && a.result === 'sold')).toHaveLength(4);
      expect(attempts.filter((a) => a.buyer === 'pending-network' && a.result === 'sold')).toHaveLength(12);
      const cursors = new WaterfallCursors(pipeline.redis, pipeline.keyPrefix);
      const now = Date.now();
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(now);
      const always = cursors.capKeys('always', now, day);
      expect(await cursors.capCount(always.hourKey)).toBe(4);
      // Every rejection gave its place back: the cap of one never stopped the walk for good.
      expect(await cursors.capCount(cursors.capKeys('never', now, day).hourKey)).toBe(0);
      expect(attempts.filter((a) => a.buyer === 'never' && a.result === 'rejected').length).toBeGreaterThan(
        1,
      );
    } finally {
      await first.close();
      await second.close();
      await pipeline.close();
    }
  });

  it('resumes a walk that crashed mid-attempt at the same attempt, with the same key', async () => {
    const buyers = buyersFile([
      buyer('never', 1, { priceLadder: [30, 20], caps: { perDay: 50 } }),
      buyer('pending-network', 2),
    ]);
    const pipeline = new Pipeline();
    try {
      // A first worker gets as far as posting step 1 and the pending answer of step 2, then dies.
      const id = await pipeline.submitLead({ jobOptions: { delay: 60_000 } });
      const lead = (await pipeline.store.get(id))!;
      const cursors = new WaterfallCursors(pipeline.redis, pipeline.keyPrefix);
      const plan = planWalk(buyers.buyers, lead.fields as LeadTraits, buyers.timeZone, Date.now());
      await cursors.init(id, plan, 600_000);
      const now = Date.now();
      const day = new Intl.DateTimeFormat('en-CA', { timeZone: 'America/Chicago' }).format(now);
      const caps = cursors.capKeys('never', now, day);
      await cursors.begin(
        id,
        0,
        { startedAt: now, endsAt: now + 5000 },
        { ...caps, perHour: undefined, perDay: 50 },
      );
      await cursors.advance(id, 0, { next: 1, release: true });
      await cursors.begin(
        id,
        1,
        { startedAt: now, endsAt: now + 5000 },
        { ...caps, perHour: undefined, perDay: 50 },
      );
      const neverAdapter = createBuyerAdapter(buyers.buyers[0]!);
      await neverAdapter.post(lead, { key: WaterfallCursors.attemptKey(id, 1), floor: 20, budgetMs: 5000 });
      await neverAdapter.close();
      expect(await cursors.capCount(caps.dayKey)).toBe(1);

      const before = await sandbox.stats();
      const worker = startWaterfallWorker(pipeline, buyers);
      try {
        await pipeline.queue.getJob(id).then((job) => job?.promote());
        const outcome = await pipeline.finalOutcome(id);
        expect(outcome.outcome).toBe('sold');
        const after = await sandbox.stats();
        // Step 1 was asked again with its own key (a replay), step 0 never again.
        expect(after.never!.attempts).toBe(before.never!.attempts);
        expect(after.never!.replays).toBe(before.never!.replays + 1);
        expect(after.never!.repeatedAttempts).toBe(0);
        expect(worker.attemptsOf(id).map((a) => `${a.index}:${a.result}`)).toEqual(['1:rejected', '2:sold']);
        expect(await cursors.capCount(caps.dayKey)).toBe(0);
      } finally {
        await worker.close();
      }
    } finally {
      await pipeline.close();
    }
  });

  it('resumes a pending attempt by pinging it, never posting it again', async () => {
    const buyers = buyersFile([buyer('pending-network', 1)]);
    const pipeline = new Pipeline();
    try {
      const id = await pipeline.submitLead({ jobOptions: { delay: 60_000 } });
      const lead = (await pipeline.store.get(id))!;
      const cursors = new WaterfallCursors(pipeline.redis, pipeline.keyPrefix);
      await cursors.init(id, [{ buyer: 'pending-network' }], 600_000);
      const now = Date.now();
      const caps = cursors.capKeys('pending-network', now, 'x');
      await cursors.begin(
        id,
        0,
        { startedAt: now, endsAt: now + 10_000 },
        { ...caps, perHour: undefined, perDay: undefined },
      );
      const adapter = createBuyerAdapter(buyers.buyers[0]!);
      const answer = await adapter.post(lead, {
        key: WaterfallCursors.attemptKey(id, 0),
        floor: undefined,
        budgetMs: 5000,
      });
      await adapter.close();
      expect(answer.kind).toBe('pending');
      if (answer.kind !== 'pending') return;
      await cursors.pending(id, 0, answer.pending.upstreamLeadId, answer.pending.checkKey);

      const before = await sandbox.stats();
      const worker = startWaterfallWorker(pipeline, buyers);
      try {
        await pipeline.queue.getJob(id).then((job) => job?.promote());
        expect((await pipeline.finalOutcome(id)).outcome).toBe('sold');
        const after = await sandbox.stats();
        expect(after['pending-network']!.attempts).toBe(before['pending-network']!.attempts);
        expect(after['pending-network']!.replays).toBe(before['pending-network']!.replays);
      } finally {
        await worker.close();
      }
    } finally {
      await pipeline.close();
    }
  });
});
